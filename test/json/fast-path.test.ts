import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createJsonStreamParser, type JsonStreamParserOptions } from "../../src/json/create-json-stream-parser.ts";

/** Everything a caller can observe: each write's elements or error, the value or error of end(), the repairs. */
function observe(chunks: string[], options: JsonStreamParserOptions, full: boolean): unknown {
  const parser = createJsonStreamParser(options);
  // Asking for the string in progress once makes the full parser read every element.
  if (full) parser.partialString();
  const seen: unknown[] = [];
  for (const chunk of chunks) {
    try {
      seen.push(parser.write(chunk).slice());
    } catch (error) {
      seen.push({ error: String(error), offset: (error as { offset?: number }).offset });
    }
  }
  try {
    seen.push({ end: parser.end() });
  } catch (error) {
    seen.push({ endError: String(error) });
  }
  seen.push(parser.repairs.map((repair) => ({ ...repair })), parser.status);
  return seen;
}

function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(text.slice(start, point));
    start = point;
  }
  chunks.push(text.slice(start));
  return chunks;
}

const unit = fc.constantFrom("a", "é", "中", "😀", '"', "\\", "\n", "\u0000", "\ud800", "/", " ", "[", "]", "{", "}", ",", ":");
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ unit }), fc.constantFrom("__proto__", "0", "a")), tie("value"), { maxKeys: 4 }),
  ),
})).value;
const glitch = fc.constantFrom("", "", "", ",", "'", "x", "/*c*/", "\n", "}", "]", "...", "+", "(", "\u00a0", "\\u12", "1.", "tru");

describe("the fast path", () => {
  it("gives the same elements, values, repairs and errors as the full parser, at every chunking (property)", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 5 }), fc.nat(), glitch, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (elements, at, insert, cuts, strict) => {
        const json = JSON.stringify(elements, null, at % 2 === 0 ? 0 : 1);
        const position = at % (json.length + 1);
        const text = `${json.slice(0, position)}${insert}${json.slice(position)}`;
        const chunks = split(text, cuts);
        expect(observe(chunks, { strict }, false)).toStrictEqual(observe(chunks, { strict }, true));
      }),
      { numRuns: 1500 },
    );
  });
});
