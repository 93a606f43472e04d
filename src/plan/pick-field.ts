/**
 * Reading a field that models name in several ways.
 *
 * @module
 */

/**
 * Returns the value of the first of `keys` that `raw` defines (as its own
 * field, neither `undefined` nor `null`).
 *
 * @param raw - the raw object.
 * @param keys - field names in order of preference.
 * @returns the value, or `undefined`.
 *
 * @example
 * ```ts
 * pickField({ tool_name: "search", name: null }, "name", "tool_name"); // "search"
 * ```
 */
export function pickField(raw: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) if (Object.hasOwn(raw, key) && raw[key] !== undefined && raw[key] !== null) return raw[key];
  return undefined;
}
