/**
 * The body of `POST /v1/guide`.
 *
 * @module
 */
import * as v from "valibot";
import { DecisionStateSchema, type Playbook, type Skill } from "../../src/decide.ts";

/**
 * Builds the schema of a guided turn's body: `message` (1–2000 characters
 * after trimming) and the optional `state` the previous turn returned — a
 * decision state whose `current_task_id` is a phase of the playbook and whose
 * `force_skill` is a known skill. Unknown top-level members are refused.
 *
 * @param playbook - the guide's playbook.
 * @param skills - the guide's skills.
 * @returns the valibot schema.
 * @example
 * ```ts
 * v.safeParse(createGuideBodySchema(tripGuidePlaybook, tripGuideSkills), { message: "to Tokyo", state: { current_task_id: "collect" } });
 * ```
 */
export function createGuideBodySchema(playbook: Playbook, skills: readonly Skill[]) {
  const phases = playbook.phases.map((phase) => phase.id);
  const names = skills.map((skill) => skill.name);
  return v.strictObject(
    {
      message: v.pipe(
        v.string("message must be a string"),
        v.trim(),
        v.minLength(1, "message must not be empty"),
        v.maxLength(2000, "message must be at most 2000 characters"),
      ),
      state: v.optional(
        v.looseObject(
          {
            ...DecisionStateSchema.entries,
            current_task_id: v.nullish(
              v.picklist(phases, `state.current_task_id must be one of: ${phases.join(", ")}`),
            ),
            force_skill: v.nullish(v.picklist(names, `state.force_skill must be one of: ${names.join(", ")}`)),
          },
          "state must be an object: the state the previous turn returned",
        ),
      ),
    },
    (issue) => {
      const key = issue.path?.[0]?.key;
      if (key === undefined) return "the body must be a JSON object";
      return issue.expected === "never" ? `unknown member ${issue.received}` : `${String(key)} is required`;
    },
  );
}

/** A validated guided turn body. */
type GuideBody = v.InferOutput<ReturnType<typeof createGuideBodySchema>>;
