/**
 * The reason a named skill is not among a phase's available skills.
 *
 * @module
 */
import { allowedSkillNames } from "./allowed-skill-names.ts";
import type { StrategyContext } from "./decision-strategy.ts";
import { findUnmetRequirement } from "./find-unmet-requirement.ts";

/**
 * Explains why `name` cannot be chosen in the context's phase: not in the
 * registry, not allowed, a requirement unmet, or internal / api-call-only.
 *
 * @param context - the strategy context.
 * @param name - the skill name.
 * @returns the explanation, or `undefined` when the skill is available.
 * @example
 * ```ts
 * explainUnavailableSkill(context, "quote"); // 'requires.all path "budget" is missing'
 * ```
 */
export function explainUnavailableSkill(context: StrategyContext, name: string): string | undefined {
  const skill = context.skills.get(name);
  if (!skill) return `"${name}" is not in the skill registry`;
  const allowed = allowedSkillNames(context.playbook, context.phase);
  if (!allowed.includes(name))
    return `phase "${context.phase.id}" does not allow it (allowed_skills: ${allowed.join(", ") || "none"})`;
  return findUnmetRequirement(skill, context.state, false);
}
