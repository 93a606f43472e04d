/**
 * Strategy 1: a skill requested directly by the caller.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import { allowedSkillNames } from "../allowed-skill-names.ts";
import type { DecisionStrategy } from "../decision-strategy.ts";
import { findUnmetRequirement } from "../find-unmet-requirement.ts";

/**
 * `force_skill`: when `state.force_skill` is set (a direct skill call, or
 * debugging), choose that skill. It must still be in the phase's allow-list
 * and satisfy `meta.requires`; being a direct call, it may be `internal` or
 * `api_call_only`.
 *
 * @throws PlankitError `unavailable-skill` when the forced skill is unknown, not allowed or its requirements are unmet.
 * @example
 * ```ts
 * await decide({ state: { ...state, force_skill: "export_pdf" }, playbook, skills }); // action "call_skill"
 * ```
 */
export const forceSkillStrategy: DecisionStrategy = {
  name: "force_skill",
  run({ state, playbook, phase, skills }) {
    const name = state.force_skill;
    if (name === undefined || name === null || name === "")
      return { hit: false, reason: "state.force_skill is not set" };
    const skill = skills.get(name);
    const fail = (why: string): never => {
      throw new PlankitError("unavailable-skill", `state.force_skill is "${name}", but ${why}`);
    };
    if (!skill) return fail("no skill of that name is in the skill registry: check the name");
    const allowed = allowedSkillNames(playbook, phase);
    if (!allowed.includes(name)) {
      return fail(
        `phase "${phase.id}" does not allow it (allowed_skills: ${allowed.join(", ") || "none"}): check allowed_skills`,
      );
    }
    const unmet = findUnmetRequirement(skill, state, true);
    if (unmet !== undefined) return fail(`it cannot run in phase "${phase.id}": ${unmet}; check its meta.requires`);
    return { hit: true, action: "call_skill", skill: name, reason: `state.force_skill requests "${name}"` };
  },
};
