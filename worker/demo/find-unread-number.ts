/**
 * Numbers written in a form the demo's readers would take only in part.
 *
 * @module
 */

/**
 * Finds the first number of a request, already passed through
 * {@link writePlainNumbers}, that the readers cannot read whole, so that
 * the model declines rather than answer about a piece of it: exponent
 * notation with no plain decimal form ("1e309", "2e-9"), a fraction
 * without an exact decimal ("⅓", "1⁄3"), superscript digits glued to a
 * word ("2²nd"), digit groups joined by a plain space ("1 000": one number or
 * two?), a comma before fewer or more than three digits ("1,5"), and —
 * unless the request is arithmetic — a power or a fraction written with
 * "^" or "/" ("10^3 m", "1/2 mile").
 *
 * @param text - the request.
 * @param arithmetic - whether the request was read as arithmetic, where "^" and "/" are operators.
 * @returns the number as written, or `undefined` when every number reads whole.
 *
 * @example
 * ```ts
 * findUnreadNumber("What is 1e309 plus 1?", true); // "1e309"
 * findUnreadNumber("Convert 10^3 m to km", false); // "10^3"
 * ```
 */
export function findUnreadNumber(text: string, arithmetic: boolean): string | undefined {
  const patterns = [
    /(?<![\p{Script=Latin}\p{N}.])\d+(?:\.\d+)?[eE][+-]?\d+(?![\d.])/u,
    /\d*\s?[⅓⅔⅙⅚⅐⅑]|\d+\s*⁄\s*\d+/u,
    /\d+[⁰¹²³⁴⁵⁶⁷⁸⁹]+\p{L}*/u,
    /(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,])/u,
    /(?<![\d.,])\d+,(?:\d{1,2}|\d{4,})(?![\d,])/u,
    ...(arithmetic ? [] : [/\d+(?:\.\d+)?\s*[\^/]\s*\d+(?:\.\d+)?/u]),
  ];
  const found = patterns
    .map((pattern) => pattern.exec(text))
    .filter((match): match is RegExpExecArray => match !== null)
    .sort((a, b) => a.index - b.index)[0];
  return found?.[0].trim();
}
