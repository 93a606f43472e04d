/**
 * Collecting the whole text of one model call.
 *
 * @module
 */
import type { FinishReason, PlanModel, PlanModelRequest } from "../model/plan-model.ts";
import type { PlannerUsage } from "./planner-event.ts";
import type { ModelCallTimeouts } from "./stream-model-parts.ts";
import { streamModelText } from "./stream-model-text.ts";

/**
 * Runs one model call to the end and collects its text.
 *
 * @param model - the model.
 * @param request - system prompt, prompt and signal.
 * @param usage - updated in place.
 * @param what - what the call is for, for error messages.
 * @param timeouts - the idle and total limits of the call (default 60 s idle, 300 s in all).
 * @returns the text and the finish reason.
 * @throws PlankitError `aborted` or `model-error`, as {@link streamModelText}.
 *
 * @example
 * ```ts
 * const { text } = await readModelText(model, { system, prompt }, usage, "Goal understanding");
 * ```
 */
export async function readModelText(
  model: PlanModel,
  request: PlanModelRequest,
  usage: PlannerUsage,
  what: string,
  timeouts?: ModelCallTimeouts,
): Promise<{ text: string; finishReason: FinishReason | "missing" }> {
  const call = streamModelText(model, request, usage, what, undefined, timeouts);
  let text = "";
  for (let next = await call.next(); ; next = await call.next()) {
    if (next.done === true) return { text, finishReason: next.value };
    text += next.value;
  }
}
