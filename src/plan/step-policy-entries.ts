/**
 * The fields every step type shares: ordering, description and per-step policy.
 *
 * @module
 */
import * as v from "valibot";
import { StepIdSchema } from "./step-id-schema.ts";
import { stepMessages as m } from "./step-messages.ts";

/**
 * Object entries shared by the `tool`, `llm` and `reply` step schemas (after
 * `id` and `type`): optional `dependsOn` (ordering without a data reference), an optional
 * human `description`, and the per-step runtime policy `retries` (how many
 * times to retry after the first failure) and `timeoutMs`.
 *
 * @example
 * ```ts
 * const MyStepSchema = v.object({ id: StepIdSchema, type: v.literal("tool"), ...stepPolicyEntries });
 * ```
 */
export const stepPolicyEntries = {
  dependsOn: v.optional(v.array(StepIdSchema, m.dependsOn)),
  description: v.optional(v.string(m.description)),
  retries: v.optional(v.pipe(v.number(m.retriesType), v.integer(m.retriesInteger), v.minValue(0, m.retriesNegative))),
  timeoutMs: v.optional(v.pipe(v.number(m.timeoutType), v.gtValue(0, m.timeoutPositive), v.finite(m.timeoutFinite))),
} as const;
