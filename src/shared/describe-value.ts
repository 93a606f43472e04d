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
 * @returns e.g. `"two"`, `42`, `NaN`, `{"a":1}`, `undefined`.
 *
 * @example
 * ```ts
 * describeValue("two"); // '"two"'
 * ```
 */
export function describeValue(value: unknown, limit = 60): string {
  let text: string;
  try {
    if (value === undefined) text = "undefined";
    else if (typeof value === "bigint") text = `${value}n`;
    // JSON would write NaN and ±Infinity as null, and -0 as 0: a message must name the value found.
    else if (typeof value === "number") text = Object.is(value, -0) ? "-0" : String(value);
    else text = JSON.stringify(value) ?? String(value);
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
