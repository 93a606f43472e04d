/**
 * Equality of JSON values as JSON Schema defines it.
 *
 * @module
 */

/**
 * Whether two JSON values are equal: numbers by value (`0` equals `-0`, at
 * any depth), strings and booleans exactly, arrays item by item, and objects
 * with the same keys whose values are equal, in any key order.
 *
 * @param a - a JSON value.
 * @param b - another.
 * @returns whether they are equal.
 *
 * @example
 * ```ts
 * jsonEqual({ a: [0], b: 1 }, { b: 1, a: [-0] }); // true
 * jsonEqual([1], { 0: 1 }); // false
 * ```
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  const keys = Object.keys(a);
  return (
    Array.isArray(a) === Array.isArray(b) &&
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key as keyof typeof a], b[key as keyof typeof b]))
  );
}
