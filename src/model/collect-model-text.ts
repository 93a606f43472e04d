/**
 * A model call's whole text.
 *
 * @module
 */
import type { FinishReason, PlanModel, PlanModelRequest, PlanModelUsage } from "./plan-model.ts";
import { addTokens, type ModelCallUsage, type ModelStreamOptions, readModelStream } from "./read-model-stream.ts";

/** The whole answer of one model call. */
export interface ModelText {
  /** The text, without a leading `<think>` block. */
  text: string;
  /** How the call ended; `"missing"` when the stream ended without saying. */
  finishReason: FinishReason | "missing";
  /** The tokens the call reported. */
  usage: PlanModelUsage;
}

/**
 * Reads one model call to its end (see {@link readModelStream}).
 *
 * @param model - the model.
 * @param request - the request.
 * @param options - what the call is for, usage, limits.
 * @returns the text, finish reason and usage.
 * @throws PlankitError `aborted`, `model-error` or `timeout`, as `readModelStream` does.
 *
 * @example
 * ```ts
 * const { text } = await collectModelText(model, { purpose: "reflect", prompt: "…", signal }, { what: "Reflection" });
 * ```
 */
export async function collectModelText(
  model: PlanModel,
  request: PlanModelRequest,
  options: ModelStreamOptions,
): Promise<ModelText> {
  const own: ModelCallUsage = { modelCalls: 0 };
  const call = readModelStream(model, request, { ...options, usage: own });
  let text = "";
  for (let next = await call.next(); ; next = await call.next()) {
    if (next.done === true) {
      if (options.usage !== undefined) {
        options.usage.modelCalls += own.modelCalls;
        addTokens(options.usage, own);
      }
      const usage: PlanModelUsage = {};
      addTokens(usage, own);
      return { text, finishReason: next.value, usage };
    }
    if (next.value.type === "text") text += next.value.text;
  }
}
