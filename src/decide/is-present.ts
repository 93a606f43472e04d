/**
 * What "filled in" means for a state value.
 *
 * @module
 */

/**
 * Whether a state value counts as present: anything but `undefined`, `null`,
 * an empty string, an empty array or an empty plain object. Checkpoints,
 * `requires` and the `present` / `missing` condition operators all use this
 * one definition, so a skill that writes `""` does not complete a goal.
 *
 * @param value - a resolved state value.
 * @returns `true` when the value is present.
 * @example
 * ```ts
 * isPresent("Ada"); // true
 * isPresent([]);    // false
 * ```
 */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.keys(value).length > 0;
  }
  return true;
}
