/**
 * Short JSON renderings for prompts.
 *
 * @module
 */

/**
 * Renders a value as JSON (strings as they are), cut to `maxChars` with a
 * marker, so results of any size fit in a prompt.
 *
 * @param value - any value.
 * @param maxChars - the longest text to return, before the marker.
 * @returns the text.
 *
 * @example
 * ```ts
 * truncateJson({ items: [1, 2, 3] }, 8); // '{"items"… [9 more characters]'
 * ```
 */
export function truncateJson(value: unknown, maxChars: number): string {
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}… [${text.length - maxChars} more characters]` : text;
}
