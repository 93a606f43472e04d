/**
 * A count with its noun, for messages and prompts.
 *
 * @module
 */

/**
 * Writes a count and its noun, plural unless the count is 1.
 *
 * @param count - how many.
 * @param noun - the singular noun; its plural adds an `s`.
 * @returns e.g. `1 step`, `3 steps`.
 *
 * @example
 * ```ts
 * countOf(2, "step"); // "2 steps"
 * ```
 */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
