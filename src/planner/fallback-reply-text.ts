/**
 * The text of the reply a planner falls back to when no step was usable.
 *
 * @module
 */

/** The longest fallback reply, in characters: the model's raw text is cut there. */
const maxFallbackLength = 2_000;

/**
 * The fallback reply's text: the model's own text, cut to 2,000 characters,
 * or the planner's fallback text when the model wrote none.
 *
 * @param modelText - what the model wrote.
 * @param fallbackText - the planner's fallback text.
 * @returns the reply's text.
 *
 * @example
 * ```ts
 * fallbackReplyText("  ", "(plan unavailable)"); // "(plan unavailable)"
 * ```
 */
export function fallbackReplyText(modelText: string, fallbackText: string): string {
  const text = modelText.trim();
  return text === "" ? fallbackText : text.slice(0, maxFallbackLength);
}
