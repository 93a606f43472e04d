/**
 * The skills a phase may run right now.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { allowedSkillNames } from "./allowed-skill-names.ts";
import type { DecisionState } from "./decision-state.ts";
import { findUnmetRequirement } from "./find-unmet-requirement.ts";
import type { Phase } from "./phase.ts";
import type { Playbook } from "./playbook.ts";
import type { Skill } from "./skill.ts";
import { type SkillCatalog, toSkillMap } from "./skill-catalog.ts";

/**
 * The skills the current phase may run, filtered in this order:
 *
 * 1. an explicit allow-list is required — the phase's `allowed_skills`, else
 *    the playbook's; never "all skills";
 * 2. every allowed name must exist in the registry — an unknown name throws;
 * 3. `meta.requires` must be satisfied (`all` present, one of `any` present);
 * 4. `internal` and `api_call_only` skills are left out.
 *
 * @param state - the per-turn state.
 * @param playbook - the playbook.
 * @param phase - the current phase.
 * @param skills - the skill registry.
 * @returns the available skills, in allow-list order.
 * @throws PlankitError `invalid-playbook` when there is no allow-list or it names a skill the registry lacks.
 * @example
 * ```ts
 * availableSkills(state, playbook, phases.current(state), skills).map((skill) => skill.name);
 * ```
 */
export function availableSkills(state: DecisionState, playbook: Playbook, phase: Phase, skills: SkillCatalog): Skill[] {
  const registry = toSkillMap(skills);
  const available: Skill[] = [];
  for (const name of allowedSkillNames(playbook, phase)) {
    const skill = registry.get(name);
    if (!skill) {
      throw new PlankitError(
        "invalid-playbook",
        `Phase "${phase.id}" allows skill "${name}", which is not in the skill registry: register it or remove it from allowed_skills`,
      );
    }
    if (findUnmetRequirement(skill, state, false) === undefined) available.push(skill);
  }
  return available;
}
