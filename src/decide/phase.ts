/**
 * Phases: the ordered stages of a playbook.
 *
 * @module
 */
import * as v from "valibot";
import { ConditionSchema } from "./condition.ts";
import { PriorityRuleSchema } from "./priority-rule.ts";

/**
 * Schema of a phase. Keys are checked strictly so a misspelt key
 * (`allowed_skill`) is reported instead of silently ignored.
 *
 * - `allowed_skills`: the skills this phase may run; replaces the playbook's list.
 * - `priority_rules`: tried before the playbook-wide rules.
 * - `checkpoints`: state paths that must all be present.
 * - `gate_field` with `gate_value` (deep equality) and/or `gate_check` (a
 *   condition whose path-less leaves test `gate_field`): the gate must pass too.
 *
 * The phase is complete when every checkpoint is present and the gate passes;
 * a phase with neither is complete at once.
 *
 * @example
 * ```ts
 * v.parse(PhaseSchema, { id: "collect", allowed_skills: ["ask_name"], checkpoints: ["profile.name"] });
 * ```
 */
export const PhaseSchema = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1, "a phase needs a non-empty id")),
  name: v.optional(v.string()),
  description: v.optional(v.string()),
  allowed_skills: v.optional(v.array(v.string())),
  priority_rules: v.optional(v.array(PriorityRuleSchema)),
  gate_field: v.optional(v.string()),
  gate_value: v.optional(v.unknown()),
  gate_check: v.optional(ConditionSchema),
  checkpoints: v.optional(v.array(v.string())),
});

/** One stage of a playbook: its skills, rules, goals and gate. */
export type Phase = v.InferOutput<typeof PhaseSchema>;
