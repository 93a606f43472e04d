/**
 * Skills: what the decision engine can choose to run.
 *
 * @module
 */
import * as v from "valibot";

const pathList = v.array(v.string());

/**
 * Schema of a skill as it arrives from a skill registry (JSON). Extra keys
 * (input schemas, handlers, …) are kept and ignored.
 *
 * - `meta.requires`: `all` paths must all be present, and at least one `any`
 *   path must be present (an empty `any` list is no constraint).
 * - `meta.internal`, `meta.api_call_only`: never chosen by the planner; only a
 *   direct call (`state.force_skill`) may run them.
 * - `meta.query`: a retrieval / question-answering skill, eligible in query mode.
 * - `outputs.provides`: the state paths the skill fills in; the deterministic
 *   strategy matches them against a phase's missing goals.
 *
 * Paths are `profile.<field>`, `decisions.<field>` or a bare data leaf name.
 *
 * @example
 * ```ts
 * const skill = v.parse(SkillSchema, { name: "ask_budget", description: "Ask for the budget", outputs: { provides: ["budget"] } });
 * ```
 */
export const SkillSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1, "a skill needs a non-empty name")),
  description: v.optional(v.string()),
  meta: v.optional(
    v.looseObject({
      requires: v.optional(v.strictObject({ all: v.optional(pathList), any: v.optional(pathList) })),
      internal: v.optional(v.boolean()),
      api_call_only: v.optional(v.boolean()),
      query: v.optional(v.boolean()),
    }),
  ),
  outputs: v.optional(v.looseObject({ provides: v.optional(pathList) })),
});

/** A skill the engine may choose: its name, description, requirements and what it provides. */
export type Skill = v.InferOutput<typeof SkillSchema>;
