/**
 * Priority rules: deterministic "when this holds, run that skill".
 *
 * @module
 */
import * as v from "valibot";
import { ConditionSchema } from "./condition.ts";

/**
 * Schema of a priority rule: when `when` holds, `skill` runs. `id` and
 * `reason` only feed the decision's reason and trace.
 *
 * @example
 * ```ts
 * v.parse(PriorityRuleSchema, { when: { path: "file_id", op: "present" }, skill: "parse_file", reason: "a file was uploaded" });
 * ```
 */
export const PriorityRuleSchema = v.strictObject({
  id: v.optional(v.string()),
  when: ConditionSchema,
  skill: v.string(),
  reason: v.optional(v.string()),
});

/** A priority rule: a condition over state paths and the skill it forces. */
export type PriorityRule = v.InferOutput<typeof PriorityRuleSchema>;
