/**
 * The allow-list in effect for a phase.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { Phase } from "./phase.ts";
import type { Playbook } from "./playbook.ts";

/**
 * The allow-list in effect for a phase: the phase's `allowed_skills` when it
 * has one, else the playbook's. There is deliberately no "every skill"
 * fallback: an engine that may pick anything is not predictable.
 *
 * @param playbook - the playbook.
 * @param phase - the phase.
 * @returns the allowed skill names, without duplicates, in order.
 * @throws PlankitError `invalid-playbook` when neither the phase nor the playbook has `allowed_skills`.
 * @example
 * ```ts
 * allowedSkillNames({ allowed_skills: ["a"], phases: [] }, { id: "p" }); // ["a"]
 * ```
 */
export function allowedSkillNames(playbook: Playbook, phase: Phase): string[] {
  const names = phase.allowed_skills ?? playbook.allowed_skills;
  if (names === undefined) {
    throw new PlankitError(
      "invalid-playbook",
      `Phase "${phase.id}" has no allowed_skills and neither has the playbook: list the skills it may run in phase.allowed_skills or playbook.allowed_skills`,
    );
  }
  return [...new Set(names)];
}
