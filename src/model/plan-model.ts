/**
 * The minimal model interface the core depends on. It never imports `ai`:
 * adapters (such as `plankit/ai`) turn any provider into a `PlanModel`.
 *
 * @module
 */

/** Why a model stream ended. Anything but `"stop"` is an unclean finish. */
export type FinishReason = "stop" | "length" | "content-filter" | "error" | "other";

/** One part of a model's streamed answer. */
export type PlanModelPart =
  | { type: "text"; text: string }
  | { type: "finish"; reason: FinishReason; usage?: PlanModelUsage };

/** Token counts a model may report with its `finish` part. */
export interface PlanModelUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** One request to a model. */
export interface PlanModelRequest {
  /** The system prompt. */
  system?: string;
  /** The user prompt. */
  prompt: string;
  /** Cancels the stream; a model must stop producing parts once it fires. */
  signal?: AbortSignal;
}

/**
 * A model that streams text. A stream that ends without a `finish` part, or
 * with any reason but `"stop"`, did not finish cleanly.
 *
 * @example
 * ```ts
 * const model: PlanModel = {
 *   async *stream() { yield { type: "text", text: "[]" }; yield { type: "finish", reason: "stop" }; },
 * };
 * ```
 */
export interface PlanModel {
  /**
   * Streams the answer to `request`.
   *
   * @param request - system prompt, prompt and abort signal.
   * @returns the answer's parts, ending with a `finish` part on a clean finish.
   */
  stream(request: PlanModelRequest): AsyncIterable<PlanModelPart>;
}
