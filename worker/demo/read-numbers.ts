/**
 * Numbers as people write them in a request.
 *
 * @module
 */

/**
 * Removes the thousands separators of the numbers in a text, leaving every
 * other comma alone: "15% of 2,340" → "15% of 2340", "1,048,576.5" →
 * "1048576.5", while "3 km, 10 kg" and "max(3, 400)" keep theirs. A comma
 * counts as a separator only between a group of one to three digits that
 * starts the number and groups of exactly three digits.
 *
 * @param text - the text.
 * @returns the text with plain numbers.
 *
 * @example
 * ```ts
 * readNumbers("What is 15% of 2,340?"); // "What is 15% of 2340?"
 * ```
 */
export function readNumbers(text: string): string {
  return text.replace(/(?<![\d.,]|\(\s*)\d{1,3}(?:,\d{3})+(?![\d,]*\d)/gu, (number) => number.replaceAll(",", ""));
}
