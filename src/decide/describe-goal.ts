/**
 * A state path in words.
 *
 * @module
 */

/**
 * Names a goal for a person: the last segment of its path, with underscores
 * as spaces.
 *
 * @param path - a state path.
 * @returns e.g. `"travel dates"` for `travel_dates`, `"name"` for `profile.name`.
 * @example
 * ```ts
 * describeGoal("decisions.plan_confirmed"); // "plan confirmed"
 * ```
 */
export function describeGoal(path: string): string {
  return (path.split(".").pop() ?? path).replaceAll("_", " ");
}
