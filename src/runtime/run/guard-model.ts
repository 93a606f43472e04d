/**
 * The model as a run's own calls see it.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import { boundStream, type ModelTimeouts } from "../../model/bound-stream.ts";
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../../model/plan-model.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import type { UsageLimits } from "./usage-limits.ts";

/**
 * Wraps the runtime's model for the calls a run makes itself (reflection,
 * integration, `llm` steps): each call is counted against the budget (or
 * refused with `budget-exceeded`), its tokens are counted, and it is
 * bounded by the idle and total timeouts.
 *
 * @param model - the runtime's model.
 * @param limits - the run's budget.
 * @param timeouts - the limits of one call.
 * @param clock - timers.
 * @returns the guarded model.
 *
 * @example
 * ```ts
 * const guarded = guardModel(model, limits, { idleMs: 30_000, totalMs: 120_000 }, clock);
 * ```
 */
export function guardModel(
  model: PlanModel,
  limits: UsageLimits,
  timeouts: ModelTimeouts,
  clock: RuntimeClock,
): PlanModel {
  return {
    async *stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
      const refusal = limits.refuseModelCall();
      if (refusal !== undefined) throw new PlankitError("budget-exceeded", refusal);
      const what =
        request.purpose === "reflect"
          ? "Reflection"
          : request.purpose === "integrate"
            ? "Integration"
            : request.purpose === "llm-step"
              ? "An llm step"
              : "A model call";
      for await (const part of boundStream(model.stream(request), timeouts, clock, what, request.signal)) {
        if (part.type === "finish") limits.countTokens(part.usage);
        yield part;
      }
    },
  };
}
