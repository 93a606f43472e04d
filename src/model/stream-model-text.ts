/**
 * A model call's text, streamed.
 *
 * @module
 */
import type { FinishReason, PlanModel, PlanModelRequest } from "./plan-model.ts";
import { type ModelStreamOptions, readModelStream } from "./read-model-stream.ts";

/**
 * Streams only the text of one model call (see {@link readModelStream}: a
 * leading `<think>` block left out, usage counted, limits applied).
 *
 * @param model - the model.
 * @param request - the request.
 * @param options - what the call is for, usage, limits.
 * @returns the text pieces; the return value is the finish reason.
 *
 * @example
 * ```ts
 * for await (const piece of streamModelText(model, { purpose: "plan", prompt }, { what: "Planning" })) console.log(piece);
 * ```
 */
export async function* streamModelText(
  model: PlanModel,
  request: PlanModelRequest,
  options: ModelStreamOptions,
): AsyncGenerator<string, FinishReason | "missing"> {
  const call = readModelStream(model, request, options);
  try {
    for (let next = await call.next(); ; next = await call.next()) {
      if (next.done === true) return next.value;
      if (next.value.type === "text") yield next.value.text;
    }
  } finally {
    await call.return("missing");
  }
}
