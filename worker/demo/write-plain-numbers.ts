/**
 * Numbers written in forms the demo's readers do not read, written plainly.
 *
 * @module
 */

/** Vulgar fractions with an exact decimal, as their decimal digits after the point. */
const fractions: Readonly<Record<string, string>> = {
  "¼": "25",
  "½": "5",
  "¾": "75",
  "⅕": "2",
  "⅖": "4",
  "⅗": "6",
  "⅘": "8",
  "⅛": "125",
  "⅜": "375",
  "⅝": "625",
  "⅞": "875",
  "⅒": "1",
};

const superscripts = "⁰¹²³⁴⁵⁶⁷⁸⁹";

/**
 * Writes plainly the numbers the readers would otherwise take in part:
 * exponent notation whose value has a plain decimal form ("1.5e3" →
 * "1500"), vulgar fractions with an exact decimal ("1½" → "1.5", "¾" →
 * "0.75"), a power written with superscript digits after a number ("3²" →
 * "3^2") and digit groups joined by a no-break or thin space ("1 000" →
 * "1000"); a minus sign "−" before a digit is written "-". Anything else is left as written; {@link findUnreadNumber} names
 * what the readers still cannot read whole ("1e309", "⅓", "1 000").
 *
 * @param text - the request.
 * @returns the request with those numbers rewritten.
 *
 * @example
 * ```ts
 * writePlainNumbers("What is 1.5e3 plus 2½?"); // "What is 1500 plus 2.5?"
 * ```
 */
export function writePlainNumbers(text: string): string {
  return text
    .replace(/\u2212(?=\d)/gu, "-")
    .replace(/(?<![\p{Script=Latin}\p{N}.])(\d+(?:\.\d+)?)[eE]([+-]?\d{1,3})(?![\d.])/gu, (written) => {
      const value = Number(written);
      const plain = String(value);
      return Number.isFinite(value) && !/e/iu.test(plain) ? plain : written;
    })
    .replace(
      /(?<![\d.])(\d+[ \u00a0]?)?([¼½¾⅕⅖⅗⅘⅛⅜⅝⅞⅒])(?![\d⁄/])/gu,
      (_, whole: string | undefined, fraction: string) =>
        `${whole === undefined ? "0" : whole.trim()}.${fractions[fraction] ?? ""}`,
    )
    .replace(
      /(\d)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)(?![\p{Script=Latin}\p{N}])/gu,
      (_, digit: string, power: string) =>
        `${digit}^${[...power].map((sign) => String(superscripts.indexOf(sign))).join("")}`,
    )
    .replace(/(?<![\d.,])\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?![\d])/gu, (written) =>
      written.replace(/[\u00a0\u202f\u2009]/gu, ""),
    );
}
