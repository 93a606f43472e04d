/**
 * Short, readable renderings of values for diagnostic messages.
 *
 * @module
 */

/**
 * Renders a value for a message: JSON, cut to `limit` characters.
 *
 * @param value - anything.
 * @param limit - the longest rendering kept whole.
 * @returns e.g. `"two"`, `42`, `{"a":1}`, `undefined`.
 *
 * @example
 * ```ts
 * describeValue("two"); // '"two"'
 * ```
 */
export function describeValue(value: unknown, limit = 60): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : typeof value === "bigint" ? `${value}n` : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * Names a value's JSON type for a message.
 *
 * @param value - anything.
 * @returns `"null"`, `"array"`, `"integer"`, `"number"`, `"string"`, `"object"`, …
 */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
