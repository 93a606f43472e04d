/**
 * Rewriting the strings inside a JSON value.
 *
 * @module
 */

/**
 * Rewrites every string inside a JSON value, deep through arrays and
 * objects; keys stay as they are (a `__proto__` key stays a plain key), and
 * other values are kept.
 *
 * @param value - the value.
 * @param rewrite - the change to one string.
 * @returns the rewritten copy (strings, arrays and objects are new).
 *
 * @example
 * ```ts
 * mapStrings({ q: "a", list: ["b", 1] }, (text) => text.toUpperCase()); // { q: "A", list: ["B", 1] }
 * ```
 */
export function mapStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === "string") return rewrite(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, rewrite));
  if (typeof value === "object" && value !== null) {
    // fromEntries makes every key an own property, `__proto__` included.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, rewrite)]));
  }
  return value;
}
