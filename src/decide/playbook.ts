/**
 * Playbooks: the configuration of a guided, multi-phase conversation.
 *
 * @module
 */
import * as v from "valibot";
import { PhaseSchema } from "./phase.ts";
import { PriorityRuleSchema } from "./priority-rule.ts";

/**
 * Schema of a playbook. Phases run in order; `allowed_skills` and
 * `priority_rules` here apply to every phase (a phase's own `allowed_skills`
 * replaces the playbook's list; the playbook list is also the query-mode
 * allow-list). Use `validatePlaybook` for the semantic checks.
 *
 * @example
 * ```ts
 * const playbook = v.parse(PlaybookSchema, JSON.parse(text));
 * ```
 */
export const PlaybookSchema = v.strictObject({
  id: v.optional(v.string()),
  name: v.optional(v.string()),
  description: v.optional(v.string()),
  allowed_skills: v.optional(v.array(v.string())),
  priority_rules: v.optional(v.array(PriorityRuleSchema)),
  phases: v.array(PhaseSchema),
});

/** A playbook: allow-lists, priority rules and ordered phases. */
export type Playbook = v.InferOutput<typeof PlaybookSchema>;
