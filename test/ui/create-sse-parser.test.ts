import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSseParser } from "../../src/ui/create-sse-parser.ts";
import { parseEditedArguments } from "../../src/ui/parse-edited-arguments.ts";

/** Everything the parser reports for a text fed in the given pieces. */
function parse(pieces: readonly string[]): unknown[] {
  const seen: unknown[] = [];
  const parser = createSseParser({
    onMessage: (message) => seen.push(message),
    onRetry: (ms) => seen.push({ retry: ms }),
  });
  for (const piece of pieces) parser.feed(piece);
  return seen;
}

describe("createSseParser", () => {
  const text =
    ': comment\rretry: 250\r\nid: 7\revent: step-end\ndata: {"a":1}\r\ndata:two\r\rdata: no id change\n\nid\nevent: x\n\ndata\n\n';
  const expected = [
    { retry: 250 },
    { id: "7", event: "step-end", data: '{"a":1}\ntwo' },
    { id: "7", event: "message", data: "no id change" },
    { id: "", event: "message", data: "" },
  ];

  it("reads CR, LF and CRLF line ends, comments, retry, a lasting id, and drops a message without data", () => {
    expect(parse([text])).toEqual(expected);
  });

  it("gives the same messages however the text is cut, a CRLF cut in two included", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 10 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces = [0, ...points].map((from, index) => text.slice(from, [...points, text.length][index]));
        expect(parse(pieces)).toEqual(expected);
      }),
    );
  });

  it("forgets a message cut off by reset(), as after a dropped connection", () => {
    const seen: unknown[] = [];
    const parser = createSseParser({ onMessage: (message) => seen.push(message.data) });
    parser.feed("data: half of a mess");
    parser.reset();
    parser.feed("data: whole\n\n");
    expect(seen).toEqual(["whole"]);
  });
});

describe("parseEditedArguments", () => {
  it("accepts a JSON object and names the step and the problem otherwise", () => {
    expect(parseEditedArguments(' { "text": "milk" } ', "s2")).toEqual({ ok: true, arguments: { text: "milk" } });
    expect(parseEditedArguments("[1]", "s2")).toEqual({
      ok: false,
      message: 'The arguments of s2 must be a JSON object ({ "name": value, … }), not an array',
    });
    expect(parseEditedArguments("null", "s3")).toEqual({
      ok: false,
      message: 'The arguments of s3 must be a JSON object ({ "name": value, … }), not null',
    });
    expect(parseEditedArguments('"x"', "s3")).toEqual({
      ok: false,
      message: 'The arguments of s3 must be a JSON object ({ "name": value, … }), not a string',
    });
    const broken = parseEditedArguments('{"text": ', "s4");
    expect(broken.ok).toBe(false);
    expect(broken.ok ? "" : broken.message).toMatch(/^The arguments of s4 are not valid JSON: /u);
  });
});
