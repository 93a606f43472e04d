/**
 * Reading a model's whole answer.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { FinishReason, PlanModel, PlanModelRequest, PlanModelUsage } from "../model/plan-model.ts";

/** A model's whole answer. */
export interface ModelText {
  text: string;
  /** The finish reason, or `"missing"` when the stream ended without one. */
  finishReason: FinishReason | "missing";
  usage: PlanModelUsage;
}

/**
 * Streams a model's answer to the end and joins its text.
 *
 * @param model - the model.
 * @param request - the prompt, system prompt and signal.
 * @returns the text, finish reason and usage.
 * @throws PlankitError `aborted` when the signal fires; errors of the model pass through.
 *
 * @example
 * ```ts
 * const { text } = await collectModelText(model, { prompt: "Summarize …", signal });
 * ```
 */
export async function collectModelText(model: PlanModel, request: PlanModelRequest): Promise<ModelText> {
  let text = "";
  let finishReason: FinishReason | "missing" = "missing";
  let usage: PlanModelUsage = {};
  for await (const part of model.stream(request)) {
    if (request.signal?.aborted === true) throw new PlankitError("aborted", "The model call was aborted", { cause: request.signal.reason });
    if (part.type === "text") text += part.text;
    else if (part.type === "finish") {
      finishReason = part.reason;
      if (part.usage !== undefined) usage = part.usage;
    }
  }
  return { text, finishReason, usage };
}
