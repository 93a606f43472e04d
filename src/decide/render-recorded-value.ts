/**
 * A recorded value as text for a reply.
 *
 * @module
 */
import { describeValue } from "../shared/describe-value.ts";

/**
 * Renders a value a skill recorded: a string as it is, a list of objects
 * with a `text` as those texts, other values as JSON (cut at 300 characters).
 *
 * @param value - a state value.
 * @returns the text.
 * @example
 * ```ts
 * renderRecordedValue([{ text: "Tokyo uses UTC+9." }]); // "Tokyo uses UTC+9."
 * ```
 */
export function renderRecordedValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (item) => typeof item === "object" && item !== null && typeof (item as { text?: unknown }).text === "string",
    )
  ) {
    return value.map((item) => (item as { text: string }).text).join(" ");
  }
  return describeValue(value, 300);
}
