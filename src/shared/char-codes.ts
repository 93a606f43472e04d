/**
 * Character classes of the readers of model text (the JSON parser and the tool-call reader), by UTF-16 code.
 *
 * @module
 */

/** An ASCII letter, `_` or `$`. */
export function isIdentifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** An ASCII letter, digit, `_` or `$`. */
export function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

/** A blank within a line: space, tab, no-break and other Unicode spaces, the BOM. */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 0xa0 || c === 0xfeff || c === 0x3000 || (c >= 0x2000 && c <= 0x200b);
}

/** A line end: `\n`, `\r`, U+2028 or U+2029. */
export function isNewline(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}
