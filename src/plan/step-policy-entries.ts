/**
 * The fields every step type shares: ordering, description and per-step policy.
 *
 * @module
 */
import * as v from "valibot";
import { StepIdSchema } from "./step-id-schema.ts";

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
  dependsOn: v.optional(v.array(StepIdSchema, "dependsOn must be an array of step ids")),
  description: v.optional(v.string("description must be a string")),
  retries: v.optional(
    v.pipe(
      v.number("retries must be a number"),
      v.integer("retries must be an integer"),
      v.minValue(0, "retries must not be negative"),
    ),
  ),
  timeoutMs: v.optional(
    v.pipe(
      v.number("timeoutMs must be a number"),
      v.gtValue(0, "timeoutMs must be positive"),
      v.finite("timeoutMs must be finite"),
    ),
  ),
} as const;
