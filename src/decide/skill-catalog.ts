/**
 * The skill registry as the engine takes it.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { Skill } from "./skill.ts";

/** Skills as a list or as a map from name to skill. */
export type SkillCatalog = readonly Skill[] | ReadonlyMap<string, Skill>;

/**
 * Turns a skill catalog into a map by name.
 *
 * @param skills - a list or map of skills.
 * @returns the skills by name.
 * @throws PlankitError `invalid-catalog` when two skills in a list share a name.
 * @example
 * ```ts
 * toSkillMap([{ name: "ask_name" }]).get("ask_name");
 * ```
 */
export function toSkillMap(skills: SkillCatalog): ReadonlyMap<string, Skill> {
  if (!Array.isArray(skills)) return skills as ReadonlyMap<string, Skill>;
  const map = new Map<string, Skill>();
  for (const skill of skills as readonly Skill[]) {
    if (map.has(skill.name))
      throw new PlankitError("invalid-catalog", `Two skills are named "${skill.name}": skill names must be unique`);
    map.set(skill.name, skill);
  }
  return map;
}
