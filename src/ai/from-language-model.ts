/**
 * Adapting an AI SDK language model to plankit's model interface.
 *
 * @module
 */
import { streamText, type FinishReason as AiFinishReason, type LanguageModel, type LanguageModelCallOptions } from "ai";
import { PlankitError } from "../errors/plankit-error.ts";
import type { FinishReason, PlanModel, PlanModelPart, PlanModelRequest, PlanModelUsage } from "../model/plan-model.ts";

type StreamTextOptions = Parameters<typeof streamText>[0];

/** Options of {@link fromLanguageModel}: call settings passed to every `streamText` call. */
export interface FromLanguageModelOptions extends LanguageModelCallOptions {
  /**
   * Retries of a failed request before streaming starts.
   *
   * @defaultValue the AI SDK's (`2`)
   */
  maxRetries?: number;
  /** Extra HTTP headers for HTTP-based providers. */
  headers?: Record<string, string>;
  /** Provider-specific options (`{ openai: { … } }`). */
  providerOptions?: NonNullable<StreamTextOptions["providerOptions"]>;
}

const finishReasons: Readonly<Record<AiFinishReason, FinishReason>> = {
  stop: "stop",
  length: "length",
  "content-filter": "content-filter",
  error: "error",
  // A plan is text; a model that stops to call tools, or a stream cut short, did not finish it.
  "tool-calls": "other",
  interrupted: "other",
  other: "other",
};

/**
 * Turns an error part or a thrown error into a plankit error.
 *
 * @param error - what the AI SDK reported.
 * @param signal - the request's signal.
 * @returns the error to throw.
 */
function toError(error: unknown, signal: AbortSignal | undefined): PlankitError {
  if (PlankitError.isInstance(error)) return error;
  if (signal?.aborted) return new PlankitError("aborted", "The model stream was aborted", { cause: signal.reason });
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new PlankitError("model-error", `The language model failed: ${detail}`, { cause: error });
}

/**
 * Adapts any AI SDK `LanguageModel` (v7 — a provider model such as
 * `createOpenAI({ baseURL })("…")`, or a gateway model id) to a
 * {@link PlanModel}, so every AI SDK provider can plan, including
 * `@ai-sdk/openai` pointed at any OpenAI-compatible server.
 *
 * Each request runs `streamText` with the system prompt as `instructions`
 * and the prompt as the user message; text deltas become `text` parts, the
 * final finish reason and token usage the `finish` part (`tool-calls` and
 * `interrupted` map to `other`). Errors the AI SDK reports in the stream are
 * thrown as `PlankitError` `model-error` (`aborted` when the signal fired),
 * so a failed request never looks like an empty answer.
 *
 * @param model - the AI SDK language model.
 * @param options - call settings for every request (temperature, max output tokens, retries, headers, provider options).
 * @returns the model.
 *
 * @example
 * ```ts
 * import { createOpenAI } from "@ai-sdk/openai";
 * import { fromLanguageModel } from "plankit/ai";
 *
 * const openai = createOpenAI({ baseURL: "http://localhost:8000/v1", apiKey: "sk-…" });
 * const planner = new LLMPlanner({ model: fromLanguageModel(openai.chat("gpt-4o-mini"), { temperature: 0 }) });
 * ```
 */
export function fromLanguageModel(model: LanguageModel, options: FromLanguageModelOptions = {}): PlanModel {
  return {
    async *stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
      const { signal } = request;
      if (signal?.aborted) throw toError(undefined, signal);
      const call: StreamTextOptions = {
        ...options,
        model,
        prompt: request.prompt,
        // The stream's error parts are thrown below; the default handler would also log them.
        onError: () => {},
      };
      if (request.system !== undefined) call.instructions = request.system;
      if (signal !== undefined) call.abortSignal = signal;
      const result = streamText(call);
      try {
        for await (const part of result.stream) {
          if (part.type === "text-delta") {
            if (part.text !== "") yield { type: "text", text: part.text };
          } else if (part.type === "error") {
            throw toError(part.error, signal);
          } else if (part.type === "abort") {
            throw new PlankitError("aborted", `The model stream was aborted${part.reason === undefined ? "" : `: ${part.reason}`}`, { cause: signal?.reason });
          } else if (part.type === "finish") {
            const usage: PlanModelUsage = {};
            if (part.totalUsage.inputTokens !== undefined) usage.inputTokens = part.totalUsage.inputTokens;
            if (part.totalUsage.outputTokens !== undefined) usage.outputTokens = part.totalUsage.outputTokens;
            yield { type: "finish", reason: finishReasons[part.finishReason], usage };
          }
        }
      } catch (error) {
        throw toError(error, signal);
      }
    },
  };
}
