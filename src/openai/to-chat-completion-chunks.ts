/**
 * Runtime events as OpenAI chat-completion chunks, so that any client of
 * the Chat Completions API can talk to a run as if it were a model.
 *
 * @module
 */
import type { RunEndReason, RuntimeEvent } from "../events/runtime-event.ts";

/** One streamed chunk of the Chat Completions API (`object: "chat.completion.chunk"`). */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  /** Unix seconds. */
  created: number;
  model: string;
  choices: {
    index: 0;
    delta: { role?: "assistant"; content?: string; reasoning_content?: string };
    finish_reason: "stop" | "length" | null;
  }[];
  /** On the usage chunk, when asked for (`stream_options.include_usage`); that chunk's `choices` is empty. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Options of {@link toChatCompletionChunks}. */
export interface ChatCompletionChunkOptions {
  /** The model name the chunks carry. */
  model: string;
  /**
   * The completion id.
   *
   * @defaultValue `chatcmpl-<run id>`
   */
  id?: string;
  /**
   * Report the plan's progress (each step starting, ending, failing or
   * skipped, re-plans) as `reasoning_content`, which chat UIs show as the
   * model's thinking.
   *
   * @defaultValue `true`
   */
  progress?: boolean;
  /**
   * End with a chunk that carries the token usage and no choices, as
   * OpenAI answers `stream_options.include_usage`.
   *
   * @defaultValue `false`
   */
  includeUsage?: boolean;
}

const finishReasons: Readonly<Record<RunEndReason, "stop" | "length">> = {
  completed: "stop",
  failed: "stop",
  aborted: "stop",
  budget: "length",
  deadline: "length",
};

/**
 * One line of progress for an event, if it has one.
 *
 * @param event - a runtime event.
 * @param tools - tool name by step id, from the step-start events.
 * @returns the line, or `undefined`.
 */
function progressLine(event: RuntimeEvent, tools: Map<string, string>): string | undefined {
  switch (event.type) {
    case "step-start":
      if (event.tool !== undefined) tools.set(event.stepId, event.tool);
      return event.tool === undefined
        ? undefined
        : `${event.stepId} ${event.tool} ${JSON.stringify(event.input ?? {})}`;
    case "step-end":
      return tools.has(event.stepId)
        ? `${event.stepId} done in ${Math.round(event.durationMs)} ms${event.cached ? " (cached)" : ""}`
        : undefined;
    case "step-error":
      return event.final
        ? `${event.stepId} failed: ${event.error.message}`
        : `${event.stepId} attempt ${event.attempt} failed: ${event.error.message}`;
    case "step-skipped":
      return `${event.stepId} skipped: ${event.reason}`;
    case "replan":
      return `re-planned: ${event.added.length} new step${event.added.length === 1 ? "" : "s"}`;
    default:
      return undefined;
  }
}

/**
 * Turns a run's events into Chat Completions chunks: the first carries the
 * role; the plan's progress comes as `reasoning_content` lines (unless
 * `progress: false`); the reply as `content`, piece by piece as it is
 * written (`reply-delta` events; a `reply` whose text came in pieces adds
 * nothing, one that did not comes whole); then a chunk with the
 * `finish_reason` (`stop`, or `length` when a budget or the deadline ended
 * the run) and, on request, a last chunk with empty `choices` and the
 * usage. `toChatCompletionStream` frames them as a streamed response body,
 * `collectChatCompletion` joins them into a whole `chat.completion`.
 *
 * @param events - the run's events.
 * @param options - the model name, the id, progress and usage.
 * @returns the chunks.
 *
 * @example
 * ```ts
 * const run = runtime.run(messages);
 * const body = toChatCompletionStream(toChatCompletionChunks(run, { model: "plankit" }), () => run.abort());
 * ```
 */
export async function* toChatCompletionChunks(
  events: AsyncIterable<RuntimeEvent>,
  options: ChatCompletionChunkOptions,
): AsyncGenerator<ChatCompletionChunk> {
  const created = Math.floor(Date.now() / 1000);
  const tools = new Map<string, string>();
  let id = options.id;
  const chunk = (
    delta: ChatCompletionChunk["choices"][number]["delta"],
    finish: ChatCompletionChunk["choices"][number]["finish_reason"] = null,
  ): ChatCompletionChunk => ({
    id: id ?? "chatcmpl",
    object: "chat.completion.chunk",
    created,
    model: options.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  let started = false;
  /** What the reply-deltas since the last `reply` wrote. */
  let written = "";
  for await (const event of events) {
    if (!started) {
      started = true;
      id ??= `chatcmpl-${event.runId}`;
      yield chunk({ role: "assistant", content: "" });
    }
    if (options.progress !== false) {
      const line = progressLine(event, tools);
      if (line !== undefined) yield chunk({ reasoning_content: `${line}\n` });
    }
    if (event.type === "reply-delta" && event.delta !== "") {
      written += event.delta;
      yield chunk({ content: event.delta });
    }
    if (event.type === "reply") {
      // The deltas were the reply; should they have fallen short of it, what is missing follows.
      const missing =
        written === "" ? event.text : event.text.startsWith(written) ? event.text.slice(written.length) : "";
      if (missing !== "") yield chunk({ content: missing });
      written = "";
    }
    if (event.type === "run-end") {
      yield chunk({}, finishReasons[event.reason]);
      if (options.includeUsage === true) {
        const { inputTokens, outputTokens } = event.usage;
        yield {
          ...chunk({}),
          choices: [],
          usage: {
            prompt_tokens: inputTokens,
            completion_tokens: outputTokens,
            total_tokens: inputTokens + outputTokens,
          },
        };
      }
    }
  }
}
