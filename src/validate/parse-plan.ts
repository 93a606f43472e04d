/**
 * The throwing variant of plan validation.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { CatalogSource } from "../tools/compile-catalog.ts";
import { type ValidatePlanOptions, validatePlan } from "./validate-plan.ts";

/**
 * Like `validatePlan`, but returns the steps only when the whole plan is
 * valid and throws otherwise.
 *
 * @param raw - the parsed plan.
 * @param tools - the tool catalog in any accepted shape.
 * @param options - `maxSteps`, the knowledge-base tool, the sketch reply.
 * @returns the canonical steps.
 * @throws PlankitError with the first issue's code; the message lists every issue and `cause` holds `{ issues }`.
 *
 * @example
 * ```ts
 * const steps = parsePlan([{ type: "reply", text: "Hello" }], {});
 * ```
 */
export function parsePlan(raw: unknown, tools: CatalogSource, options: ValidatePlanOptions = {}): PlanStep[] {
  const { steps, issues } = validatePlan(raw, tools, options);
  const first = issues[0];
  if (first === undefined) return steps;
  const message =
    issues.length === 1
      ? first.message
      : `${issues.length} problems in the plan:\n- ${issues.map((issue) => issue.message).join("\n- ")}`;
  throw new PlankitError(first.code, message, { cause: { issues } });
}
