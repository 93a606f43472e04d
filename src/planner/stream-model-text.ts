/**
 * One model call, as the planner makes it.
 *
 * @module
 */
import type { FinishReason, PlanModel, PlanModelRequest } from "../model/plan-model.ts";
import type { PlannerUsage } from "./planner-event.ts";
import { streamModelParts, type ModelCallTimeouts } from "./stream-model-parts.ts";

/**
 * Streams one model call's text (the text parts of {@link streamModelParts}),
 * counting the call and adding the reported tokens to `usage`. It stops at
 * the `finish` part and returns its reason, or `"missing"` when the stream
 * ended without one.
 *
 * @param model - the model.
 * @param request - system prompt, prompt and signal.
 * @param usage - updated in place.
 * @param what - what the call is for, for error messages ("Planning").
 * @param whileWaiting - run once the call is under way, before its first part arrives.
 * @param timeouts - the idle and total limits of the call (default 60 s idle, 300 s in all).
 * @returns the text chunks; the return value is the finish reason.
 * @throws PlankitError `aborted` when the request's signal fired; `model-error` when the model failed; `timeout` when it stalled.
 *
 * @example
 * ```ts
 * const call = streamModelText(model, { prompt }, usage, "Planning");
 * for (let next = await call.next(); !next.done; next = await call.next()) text += next.value;
 * ```
 */
export async function* streamModelText(
  model: PlanModel,
  request: PlanModelRequest,
  usage: PlannerUsage,
  what: string,
  whileWaiting?: () => void,
  timeouts?: ModelCallTimeouts,
): AsyncGenerator<string, FinishReason | "missing"> {
  const call = streamModelParts(model, request, usage, what, whileWaiting, timeouts);
  try {
    for (let next = await call.next(); ; next = await call.next()) {
      if (next.done === true) return next.value;
      if (next.value.type === "text") yield next.value.text;
    }
  } finally {
    await call.return("missing");
  }
}
