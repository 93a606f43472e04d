/**
 * The minimal model interface the core depends on. It never imports `ai`:
 * adapters (such as `plankit/ai`) turn any provider into a `PlanModel`.
 *
 * @module
 */

/**
 * Why a model stream ended. `"stop"` is a clean finish; `"tool-calls"` is a
 * clean finish of a turn that called tools natively (only a request that
 * offered `tools` may end so); anything else is unclean.
 */
export type FinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";

/**
 * One part of a model's streamed answer:
 *
 * - `text`: a piece of the answer's text;
 * - `tool-input-start`, `tool-input-delta`, `tool-input-end`: a native tool
 *   call streamed as it is written — its id and tool name, pieces of its
 *   JSON arguments, and the end of its arguments;
 * - `tool-call`: a native tool call whole (its JSON arguments as text); after
 *   a streamed call with the same id it is the call's final input, which
 *   wins over the streamed arguments when the two differ. Providers may send
 *   `tool-input-end` and `tool-call` for every call only when the turn
 *   ends: a reader may treat a call's arguments as complete the moment
 *   their JSON closes;
 * - `finish`: the end, with the reason and the token usage.
 */
export type PlanModelPart =
  | { type: "text"; text: string }
  | { type: "tool-input-start"; callId: string; toolName: string }
  | { type: "tool-input-delta"; callId: string; delta: string }
  | { type: "tool-input-end"; callId: string }
  | { type: "tool-call"; callId: string; toolName: string; input: string }
  | { type: "finish"; reason: FinishReason; usage?: PlanModelUsage };

/** A tool offered to a model for native tool calls. */
export interface PlanModelTool {
  /** The tool's name, as the catalog has it (adapters map it to what the provider allows). */
  name: string;
  /** What the tool does. */
  description: string;
  /** The JSON Schema of its arguments. */
  inputSchema: Record<string, unknown>;
}

/** One native tool call a model made in an earlier turn. */
export interface PlanModelToolCall {
  callId: string;
  toolName: string;
  /** The arguments the model wrote. */
  input: unknown;
}

/** What came of one native tool call, sent back to the model. */
export interface PlanModelToolResult {
  callId: string;
  toolName: string;
  /** The result, as JSON; or the reason it failed or was not run when `isError`. */
  output: unknown;
  /** The call failed, was refused, or did not run. */
  isError?: boolean;
}

/**
 * A turn of a native tool-calling conversation after the request's prompt:
 * the model's own turn (its text and calls), then the results of its calls.
 */
export type PlanModelMessage =
  | { role: "assistant"; text: string; toolCalls: PlanModelToolCall[] }
  | { role: "tool"; results: PlanModelToolResult[] };

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
  /**
   * Tools the model may call natively. A model that cannot call tools
   * ignores them and answers with text.
   *
   * @defaultValue none
   */
  tools?: readonly PlanModelTool[];
  /**
   * The turns after the prompt, in order (native tool calls and their
   * results), for a model asked to go on after calling tools.
   *
   * @defaultValue none
   */
  messages?: readonly PlanModelMessage[];
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
