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

/**
 * What a model call is for. Every caller in the core sets it, so that a
 * scripted or offline model can answer by purpose instead of by the wording
 * of a prompt: `plan` (a plan), `repair` (a plan again, with its issues),
 * `replan` (a patch after a failure), `reason` (the thinking before a sketch
 * plan), `understand` (a request read as a goal), `reflect` (a failed step
 * judged), `integrate` (results written as the reply), `llm-step` (an `llm`
 * step's prompt), `decide` (the decision engine's choice of skill),
 * `guided-reply` (a guided conversation's answer).
 */
export type PlanModelPurpose =
  | "plan"
  | "repair"
  | "replan"
  | "reason"
  | "understand"
  | "reflect"
  | "integrate"
  | "llm-step"
  | "decide"
  | "guided-reply";

/** One request to a model. */
export interface PlanModelRequest {
  /**
   * What the call is for; models may ignore it.
   *
   * @defaultValue none
   */
  purpose?: PlanModelPurpose;
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
