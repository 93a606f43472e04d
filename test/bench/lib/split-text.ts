/**
 * Splits a text into chunks of `size` code points, the way a model's text
 * deltas arrive: a surrogate pair (an emoji) is never cut in half.
 *
 * @param text - the whole text.
 * @param size - code points per chunk (the last chunk may be shorter).
 * @returns the chunks, which join back to `text`.
 * @example
 * ```ts
 * splitText("a😀bc", 2); // ["a😀", "bc"]
 * ```
 */
export function splitText(text: string, size: number): string[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Chunk size must be a positive integer, got ${size}`);
  const chunks: string[] = [];
  let start = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: skip over the low half.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count === size) {
      chunks.push(text.slice(start, i + 1));
      start = i + 1;
      count = 0;
    }
  }
  if (start < text.length) chunks.push(text.slice(start));
  return chunks;
}
