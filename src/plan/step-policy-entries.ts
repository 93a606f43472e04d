/**
 * The fields every step type shares: ordering, description and per-step policy.
 *
 * @module
 */
import * as v from "valibot";
import { StepIdSchema } from "./step-id-schema.ts";
import {
  DEPENDS_ON_MESSAGE,
  DESCRIPTION_MESSAGE,
  RETRIES_INTEGER_MESSAGE,
  RETRIES_NEGATIVE_MESSAGE,
  RETRIES_TYPE_MESSAGE,
  TIMEOUT_FINITE_MESSAGE,
  TIMEOUT_POSITIVE_MESSAGE,
  TIMEOUT_TYPE_MESSAGE,
} from "./step-messages.ts";

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
  dependsOn: v.optional(v.array(StepIdSchema, DEPENDS_ON_MESSAGE)),
  description: v.optional(v.string(DESCRIPTION_MESSAGE)),
  retries: v.optional(
    v.pipe(v.number(RETRIES_TYPE_MESSAGE), v.integer(RETRIES_INTEGER_MESSAGE), v.minValue(0, RETRIES_NEGATIVE_MESSAGE)),
  ),
  timeoutMs: v.optional(
    v.pipe(v.number(TIMEOUT_TYPE_MESSAGE), v.gtValue(0, TIMEOUT_POSITIVE_MESSAGE), v.finite(TIMEOUT_FINITE_MESSAGE)),
  ),
} as const;
