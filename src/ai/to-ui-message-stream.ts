/**
 * Runtime events as an AI SDK UI message stream, for `useChat` and other
 * AI SDK UI clients.
 *
 * @module
 */
import type { FinishReason as AiFinishReason, UIMessageChunk } from "ai";
import type { RunEndReason, RuntimeEvent } from "../events/runtime-event.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { toApprovalChunks } from "./to-approval-chunks.ts";

/** Options of {@link toUIMessageStream}. */
export interface ToUIMessageStreamOptions {
  /**
   * The id of the assistant message the stream builds, sent with `start`.
   *
   * @defaultValue the run id
   */
  messageId?: string;
  /**
   * Also send every runtime event as a transient `data-plankit` chunk:
   * clients get it in `onData` (to draw the plan's graph, say), and it is
   * not kept in the message.
   *
   * @defaultValue `false`
   */
  sendEvents?: boolean;
  /**
   * How many of the run's first events an earlier stream of the same
   * message already sent: they are read (the converter learns the steps)
   * but send nothing, not even `start`. For continuing a message after
   * approvals (see `createChatTransport`).
   *
   * @defaultValue `0`
   */
  skipEvents?: number;
}

/** The names of {@link ToUIMessageStreamOptions}. */
export const uiMessageStreamOptionNames = ["messageId", "sendEvents", "skipEvents"];

/** The tool name under which `llm` steps appear. */
const LLM_TOOL_NAME = "llm";

const finishReasons: Readonly<Record<RunEndReason, AiFinishReason>> = {
  completed: "stop",
  failed: "error",
  aborted: "other",
  budget: "other",
  deadline: "other",
};

/**
 * Turns the events of a run into the chunks of one assistant message.
 * Keeps what it needs to know between events.
 *
 * @param options - the message id and whether to send the events.
 * @returns the converter: each call gives the chunks for one event.
 */
function createChunker(options: ToUIMessageStreamOptions): (event: RuntimeEvent) => UIMessageChunk[] {
  const toolNames = new Map<string, string>();
  let started = false;
  let replies = 0;
  /** The text part the reply-deltas write into, and what they wrote, until the `reply` closes it. */
  let open: { id: string; written: string } | undefined;
  const tool = (stepId: string, input: unknown): UIMessageChunk => ({
    type: "tool-input-available",
    toolCallId: stepId,
    toolName: toolNames.get(stepId) ?? LLM_TOOL_NAME,
    input,
    dynamic: true,
    providerExecuted: true,
  });
  return (event) => {
    const chunks: UIMessageChunk[] = [];
    if (!started) {
      started = true;
      chunks.push({ type: "start", messageId: options.messageId ?? event.runId }, { type: "start-step" });
    }
    switch (event.type) {
      case "step-planned": {
        const { step } = event;
        if (step.type === "reply") break;
        toolNames.set(step.id, step.type === "tool" ? step.name : LLM_TOOL_NAME);
        const chunk = tool(step.id, step.type === "tool" ? step.arguments : { prompt: step.prompt });
        if (step.description !== undefined && chunk.type === "tool-input-available") chunk.title = step.description;
        chunks.push(chunk);
        break;
      }
      case "step-start":
        // The input with its references resolved.
        if (toolNames.has(event.stepId) && event.input !== undefined) {
          chunks.push(
            tool(
              event.stepId,
              toolNames.get(event.stepId) === LLM_TOOL_NAME && event.tool === undefined
                ? { prompt: event.input }
                : event.input,
            ),
          );
        }
        break;
      case "step-end":
        if (toolNames.has(event.stepId))
          chunks.push({
            type: "tool-output-available",
            toolCallId: event.stepId,
            output: event.result,
            dynamic: true,
            providerExecuted: true,
          });
        break;
      case "step-error":
        if (event.final && toolNames.has(event.stepId))
          chunks.push({
            type: "tool-output-error",
            toolCallId: event.stepId,
            errorText: event.error.message,
            dynamic: true,
            providerExecuted: true,
          });
        break;
      case "approval-request":
      case "approval-decision":
        chunks.push(...toApprovalChunks(event));
        break;
      case "step-skipped":
        if (toolNames.has(event.stepId) && event.code === "denied")
          chunks.push({ type: "tool-output-denied", toolCallId: event.stepId });
        else if (toolNames.has(event.stepId))
          chunks.push({
            type: "tool-output-error",
            toolCallId: event.stepId,
            errorText: `Skipped: ${event.reason}`,
            dynamic: true,
            providerExecuted: true,
          });
        break;
      case "reply-delta": {
        if (event.delta === "") break;
        if (open === undefined) {
          open = { id: `${event.runId}-reply-${++replies}`, written: "" };
          chunks.push({ type: "text-start", id: open.id });
        }
        open.written += event.delta;
        chunks.push({ type: "text-delta", id: open.id, delta: event.delta });
        break;
      }
      case "reply": {
        if (open === undefined) {
          const id = `${event.runId}-reply-${++replies}`;
          chunks.push(
            { type: "text-start", id },
            { type: "text-delta", id, delta: event.text },
            { type: "text-end", id },
          );
          break;
        }
        // The deltas were the reply; should they have fallen short of it, what is missing follows.
        const missing = event.text.startsWith(open.written) ? event.text.slice(open.written.length) : "";
        if (missing !== "") chunks.push({ type: "text-delta", id: open.id, delta: missing });
        chunks.push({ type: "text-end", id: open.id });
        open = undefined;
        break;
      }
      case "run-end":
        // A reply cut short by the end: its part is closed with what it has.
        if (open !== undefined) chunks.push({ type: "text-end", id: open.id });
        open = undefined;
        if (event.reason === "aborted") chunks.push({ type: "abort", reason: event.error?.message ?? "aborted" });
        else if (event.reason === "failed")
          chunks.push({ type: "error", errorText: event.error?.message ?? "The run failed" });
        chunks.push({ type: "finish-step" }, { type: "finish", finishReason: finishReasons[event.reason] });
        break;
      default:
        break;
    }
    if (options.sendEvents === true) chunks.push({ type: "data-plankit", data: event, transient: true });
    return chunks;
  };
}

/**
 * Turns a run's events (`runtime.run(…)`, or a log being replayed) into an
 * AI SDK UI message stream — the chunks `useChat`, `readUIMessageStream`
 * and the AI SDK's other UI clients read — so that the plan and its
 * results show as one assistant message:
 *
 * - `start` (with the message id) and `start-step` first;
 * - each `tool` step as a dynamic tool part (`toolCallId` = step id,
 *   `providerExecuted`, the step's `description` as its title): its input
 *   as planned when the step streams in, then with references resolved when
 *   it starts, then its output, or its error (a step that failed for good,
 *   or was skipped, with the reason); `llm` steps likewise, as the tool
 *   `llm` with input `{ prompt }`;
 * - approvals as tool-approval parts: an `approval-request` puts each
 *   listed step's part in state `approval-requested` (see `toApprovalChunks`),
 *   an `approval-decision` answers it, and a denied step ends `output-denied`;
 * - the reply as a text part, written piece by piece as the run writes it
 *   (`reply-delta` events; the `reply` closes the part), or whole when the
 *   run sends the reply without pieces;
 * - `error` for a failed run, `abort` for an aborted one, then
 *   `finish-step` and `finish` (`stop` when the run completed, `error`
 *   when it failed, `other` otherwise).
 *
 * Cancelling the stream stops reading the events; to stop the run, abort
 * the signal passed to `runtime.run`.
 *
 * @param events - the run's events.
 * @param options - the message id, and whether to send every event as a transient data chunk too.
 * @returns the stream of chunks.
 * @throws PlankitError `invalid-options` for an option it does not know.
 *
 * @example
 * ```ts
 * const run = runtime.run(fromUIMessages(messages), { signal: request.signal });
 * return toUIMessageStreamResponse(run); // the response useChat reads
 * ```
 */
export function toUIMessageStream(
  events: AsyncIterable<RuntimeEvent>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  checkOptionKeys(options, uiMessageStreamOptionNames, "toUIMessageStream");
  const chunker = createChunker(options);
  let iterator: AsyncIterator<RuntimeEvent> | undefined;
  let skip = options.skipEvents ?? 0;
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      iterator ??= events[Symbol.asyncIterator]();
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) {
          controller.close();
          return;
        }
        const chunks = chunker(next.value);
        if (skip > 0) {
          skip--;
          continue;
        }
        for (const chunk of chunks) controller.enqueue(chunk);
        if (chunks.length > 0) return;
      }
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}
