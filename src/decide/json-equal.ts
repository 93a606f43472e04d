/**
 * Structural equality of JSON values.
 *
 * @module
 */

/**
 * Whether two JSON values are equal: same primitives, arrays equal element by
 * element, objects with the same keys (in any order) and equal values.
 *
 * @param left - a JSON value.
 * @param right - a JSON value.
 * @returns `true` when the values are structurally equal.
 * @example
 * ```ts
 * jsonEqual({ a: [1, 2] }, { a: [1, 2] }); // true
 * ```
 */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const keys = Object.keys(leftRecord);
  return (
    keys.length === Object.keys(rightRecord).length &&
    keys.every((key) => Object.hasOwn(rightRecord, key) && jsonEqual(leftRecord[key], rightRecord[key]))
  );
}
