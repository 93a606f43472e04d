/**
 * Strategy 3: side questions that must not move the workflow.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import type { DecisionStrategy } from "../decision-strategy.ts";
import { findUnmetRequirement } from "../find-unmet-requirement.ts";

/**
 * `query_mode`: when `state._query_mode` is set, only query skills
 * (`meta.query: true`) from the playbook-wide `allowed_skills` may run —
 * never phase skills, gates or phase changes. The first runnable one in
 * allow-list order wins (order the list by preference); with none, the turn is
 * answered directly (`respond`, or `finish` when responding is not allowed).
 * In query mode this strategy always decides.
 *
 * @throws PlankitError `invalid-playbook` when playbook.allowed_skills names a skill the registry lacks.
 * @example
 * ```ts
 * await decide({ state: { ...state, _query_mode: true }, playbook, skills }); // e.g. call_skill "search_faq"
 * ```
 */
export const queryModeStrategy: DecisionStrategy = {
  name: "query_mode",
  run({ state, playbook, skills, allowRespond }) {
    if (state._query_mode !== true) return { hit: false, reason: "state._query_mode is not set" };
    const candidates: string[] = [];
    for (const name of playbook.allowed_skills ?? []) {
      const skill = skills.get(name);
      if (!skill) {
        throw new PlankitError(
          "invalid-playbook",
          `playbook.allowed_skills names "${name}", which is not in the skill registry: register it or remove it`,
        );
      }
      if (skill.meta?.query === true && findUnmetRequirement(skill, state, false) === undefined) candidates.push(name);
    }
    const [first, ...others] = candidates;
    if (first !== undefined) {
      const rest = others.length === 0 ? "" : ` (also runnable: ${others.join(", ")})`;
      return {
        hit: true,
        action: "call_skill",
        skill: first,
        reason: `query mode: "${first}" is the first runnable query skill of playbook.allowed_skills${rest}`,
      };
    }
    return {
      hit: true,
      action: allowRespond ? "respond" : "finish",
      reason: `query mode: no query skill (meta.query) of playbook.allowed_skills can run, so the question is answered ${allowRespond ? "directly" : "by finishing (responding is not allowed)"}`,
    };
  },
};
