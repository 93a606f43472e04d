/**
 * Questions whether a year is a leap year.
 *
 * @module
 */

/**
 * Reads the years a request asks about when it asks whether they are leap
 * years: "is 2028 a leap year", "were 1900 and 2000 leap years?". Questions
 * about leap years that are not yes or no for given years ("how many leap
 * years between…", "the next leap year after 2026") are not read: the model
 * does not answer them, rather than answer a narrower one.
 *
 * @param text - the request.
 * @returns the years, or `undefined`.
 *
 * @example
 * ```ts
 * findLeapYears("Is 2028 a leap year?"); // [2028]
 * ```
 */
export function findLeapYears(text: string): number[] | undefined {
  const lower = text.toLowerCase();
  if (!/\bleap\b|闰年/u.test(lower)) return undefined;
  if (
    /\b(?:how many|next|previous|last|first|until|since|after|before|between|from|list|when|which|since|count)\b/u.test(
      lower,
    )
  )
    return undefined;
  const years = [...lower.matchAll(/(?<![\d.,])\d{1,5}(?![\d.,]*\d)/gu)].map((match) => Number(match[0]));
  return years.length > 0 ? [...new Set(years)] : undefined;
}
