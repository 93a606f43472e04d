/**
 * Strategy 7: the fallback that always decides.
 *
 * @module
 */
import type { DecisionStrategy } from "../decision-strategy.ts";

/**
 * `no_available_skills`: the end of the chain. Replies in natural language
 * (`respond`) when responding is allowed, else `finish`; the reason says
 * whether no skill was available or none was chosen.
 *
 * @example
 * ```ts
 * (await decide({ state, playbook: { allowed_skills: [], phases: [{ id: "chat" , checkpoints: ["x"] }] }, skills: [] })).action; // "respond"
 * ```
 */
export const noAvailableSkillsStrategy: DecisionStrategy = {
  name: "no_available_skills",
  run({ available, phase, allowRespond }) {
    const outcome = allowRespond ? "responding" : "finishing";
    const situation =
      available.length === 0
        ? `no skill is available in phase "${phase.id}"`
        : `no strategy chose among the available skills (${available.map((skill) => skill.name).join(", ")})`;
    return { hit: true, action: allowRespond ? "respond" : "finish", reason: `${situation}; ${outcome}` };
  },
};
