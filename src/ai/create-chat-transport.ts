/**
 * A chat transport that runs plans where the chat is, with no server.
 *
 * @module
 */
import type { ChatTransport, UIMessage, UIMessageChunk } from "ai";
import type { ApprovalDecision } from "../events/approval-decision.ts";
import type { Dialog } from "../events/dialog.ts";
import type { RunState } from "../events/run-state.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { fromUIApprovalResponses } from "./from-ui-approval-responses.ts";
import { fromUIMessages } from "./from-ui-messages.ts";
import { toUIMessageStream, type ToUIMessageStreamOptions } from "./to-ui-message-stream.ts";

/**
 * A run as the transport uses it: its events, and for approvals (an
 * `AgentRuntime` run handle has them) its state, events so far, whether it
 * waits for decisions, and how to pass them.
 */
export interface ChatRun extends AsyncIterable<RuntimeEvent> {
  readonly state?: RunState;
  readonly events?: readonly RuntimeEvent[];
  readonly waitingForApproval?: boolean;
  approve?(decisions: readonly ApprovalDecision[]): void;
  abort?(reason?: string): void;
}

/** What the transport needs of a runtime: `AgentRuntime.run`. */
export interface ChatRuntime {
  run(dialog: Dialog, options?: { signal?: AbortSignal }): ChatRun;
}

/**
 * The run's events for one stream of its message: from the start (the
 * stream skips those already sent), ending — without stopping the run —
 * once the run waits only for approval decisions and every event was read.
 *
 * @param run - the run.
 * @param sent - receives the count of events read, for the next stream.
 * @returns the events.
 */
function untilApprovalWait(run: ChatRun, sent: (count: number) => void): AsyncIterable<RuntimeEvent> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = run[Symbol.asyncIterator]();
      let read = 0;
      return {
        async next(): Promise<IteratorResult<RuntimeEvent>> {
          // Leaving here does not call the run's `return`, which would abort it.
          if (run.waitingForApproval === true && read === run.events?.length) return { done: true, value: undefined };
          const next = await iterator.next();
          if (next.done !== true) sent(++read);
          return next;
        },
        async return(): Promise<IteratorResult<RuntimeEvent>> {
          return (await iterator.return?.()) ?? { done: true, value: undefined };
        },
      };
    },
  };
}

/**
 * Makes an AI SDK `ChatTransport` that answers each message by running a
 * plan with the given runtime, in the same process — `useChat` (or any
 * AI SDK chat) in the browser, with no API route: `sendMessages` reads the
 * conversation with {@link fromUIMessages}, starts `runtime.run` with the
 * chat's abort signal (so `stop()` aborts the run) and returns the run as
 * a UI message stream ({@link toUIMessageStream}); a regenerated message
 * keeps its id. There is nothing to reconnect to, so
 * `reconnectToStream` answers `null`.
 *
 * Approvals: when the run waits only for approval decisions, the stream
 * ends with the steps' parts in state `approval-requested`, and the run
 * waits. Once the app answered them with `addToolApprovalResponse` (and
 * `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`,
 * or a `sendMessage()`), the next request carries the answers: the
 * transport passes them to `run.approve` and continues the same assistant
 * message where it stopped.
 *
 * @param runtime - the runtime (an `AgentRuntime`).
 * @param options - `sendEvents`, and a fixed `messageId` if wanted.
 * @returns the transport.
 *
 * @example
 * ```ts
 * const { messages, sendMessage, addToolApprovalResponse } = useChat({
 *   transport: createChatTransport(new AgentRuntime({ planner, registry, policy: { send_mail: { approval: "plan" } } })),
 *   sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
 * });
 * ```
 */
export function createChatTransport<UI_MESSAGE extends UIMessage = UIMessage>(runtime: ChatRuntime, options: ToUIMessageStreamOptions = {}): ChatTransport<UI_MESSAGE> {
  /** Runs that wait for decisions, by the id of their assistant message, with how many events were sent. */
  const waiting = new Map<string, { run: ChatRun; sent: number }>();
  const stream = (run: ChatRun, messageId: string, skipEvents: number): ReadableStream<UIMessageChunk> => {
    const record = { run, sent: skipEvents };
    const events = run.waitingForApproval === undefined ? run : untilApprovalWait(run, (count) => (record.sent = count));
    const chunks = toUIMessageStream(events, { ...options, messageId, skipEvents });
    // Once this stream is read to its end, a run that still waits is kept for the answers.
    return chunks.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        flush() {
          if (run.waitingForApproval === true && run.state?.status !== "ended") waiting.set(messageId, record);
          else waiting.delete(messageId);
        },
      }),
    );
  };
  return {
    async sendMessages({ messages, abortSignal, messageId }) {
      const last = messages[messages.length - 1];
      const paused = last?.role === "assistant" ? waiting.get(last.id) : undefined;
      if (paused !== undefined && last !== undefined && paused.run.state !== undefined) {
        waiting.delete(last.id);
        const decisions = fromUIApprovalResponses(last, paused.run.state);
        if (decisions.length > 0) paused.run.approve?.(decisions);
        abortSignal?.addEventListener("abort", () => paused.run.abort?.("The chat stopped the run"), { once: true });
        return stream(paused.run, last.id, paused.sent);
      }
      const run = runtime.run(fromUIMessages(messages), abortSignal === undefined ? {} : { signal: abortSignal });
      const id = options.messageId ?? messageId ?? run.state?.runId ?? (run as { runId?: string }).runId;
      if (id === undefined) return toUIMessageStream(run, options);
      return stream(run, id, 0);
    },
    async reconnectToStream() {
      return null;
    },
  };
}
