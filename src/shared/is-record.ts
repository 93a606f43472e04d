/**
 * The one record guard.
 *
 * @module
 */

/**
 * Whether a value is an object with string keys: not `null`, not an array.
 *
 * @param value - anything.
 * @returns `true` for `{}` and other non-array objects.
 *
 * @example
 * ```ts
 * isRecord({ a: 1 }); // true
 * isRecord([1]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
