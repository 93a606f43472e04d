/**
 * Why a skill cannot run on a given state.
 *
 * @module
 */
import type { DecisionState } from "./decision-state.ts";
import { isPathPresent } from "./is-path-present.ts";
import type { Skill } from "./skill.ts";

/**
 * Checks a skill against the state: `meta.requires` must be satisfied and —
 * unless `direct` — the skill must not be `internal` or `api_call_only`.
 *
 * @param skill - the skill.
 * @param state - the per-turn state.
 * @param direct - whether this is a direct call (`force_skill`), which may run internal and api-call-only skills.
 * @returns why the skill cannot run, or `undefined` when it can.
 * @example
 * ```ts
 * findUnmetRequirement({ name: "quote", meta: { requires: { all: ["budget"] } } }, {}, false);
 * // 'requires.all path "budget" is missing'
 * ```
 */
export function findUnmetRequirement(skill: Skill, state: DecisionState, direct: boolean): string | undefined {
  const meta = skill.meta ?? {};
  if (!direct && meta.internal === true) return "it is internal (meta.internal) and only runs when called directly";
  if (!direct && meta.api_call_only === true)
    return "it is api_call_only (meta.api_call_only) and only runs when called directly";
  const missing = (meta.requires?.all ?? []).filter((path) => !isPathPresent(state, path));
  if (missing.length > 0) {
    return `requires.all ${missing.length === 1 ? "path" : "paths"} ${missing.map((path) => `"${path}"`).join(", ")} ${missing.length === 1 ? "is" : "are"} missing`;
  }
  const any = meta.requires?.any ?? [];
  if (any.length > 0 && !any.some((path) => isPathPresent(state, path))) {
    return `none of requires.any ${any.map((path) => `"${path}"`).join(", ")} is present`;
  }
  return undefined;
}
