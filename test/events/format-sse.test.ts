import { createParser, type EventSourceMessage } from "eventsource-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatSse, formatSseComment } from "../../src/events.ts";

/** What a spec-following SSE parser (not ours) reads from a text, fed in the given pieces. */
function parse(pieces: readonly string[]): { messages: EventSourceMessage[]; retries: number[] } {
  const messages: EventSourceMessage[] = [];
  const retries: number[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message), onRetry: (ms) => retries.push(ms) });
  for (const piece of pieces) parser.feed(piece);
  return { messages, retries };
}

/** Cuts a text at the given fractions. */
function cut(text: string, at: readonly number[]): string[] {
  const points = [...new Set(at.map((fraction) => Math.floor(fraction * text.length)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

describe("formatSse", () => {
  it("frames id, event, retry and data as an independent SSE parser reads them", () => {
    expect(formatSse({ id: 4, event: "reply", retry: 3000, data: '{"text":"hi"}' })).toBe(
      'id: 4\nevent: reply\nretry: 3000\ndata: {"text":"hi"}\n\n',
    );
    expect(formatSse({ data: "[DONE]" })).toBe("data: [DONE]\n\n");
    // A retry hint alone dispatches no event; an empty payload does.
    expect(formatSse({ retry: 3000 })).toBe("retry: 3000\n\n");
    expect(parse([formatSse({ retry: 3000 }), formatSse({ data: "" })])).toEqual({
      messages: [{ id: undefined, event: undefined, data: "" }],
      retries: [3000],
    });
    expect(formatSseComment("keep-alive")).toBe(": keep-alive\n\n");
    expect(parse([formatSseComment("a\nb"), formatSse({ data: "x" })]).messages.map((message) => message.data)).toEqual(
      ["x"],
    );
  });

  it("writes a comment that no parser delivers, with its line breaks removed", () => {
    expect(formatSseComment()).toBe(":\n\n");
    expect(formatSseComment("")).toBe(":\n\n");
    expect(formatSseComment("a\r\nb\rc\nd")).toBe(": abcd\n\n");
    expect(
      parse([formatSseComment(), formatSseComment("x\rdata: y"), formatSse({ data: "z" })]).messages.map(
        (message) => message.data,
      ),
    ).toEqual(["z"]);
  });

  it("writes retry only for a whole number of milliseconds, zero included", () => {
    expect(formatSse({ retry: 0 })).toBe("retry: 0\n\n");
    expect(formatSse({ retry: -0 })).toBe("retry: 0\n\n");
    for (const retry of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0.5])
      expect(formatSse({ retry, data: "x" })).toBe("data: x\n\n");
  });

  it("keeps any payload, name and id intact through a real parser, however the stream is cut (property)", () => {
    // Line breaks of every kind, NULs, colons and spaces (the characters SSE framing gives a meaning) come often.
    const unit = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("\r", "\n", "\r\n") },
      { weight: 1, arbitrary: fc.constantFrom("\0", ":", " ", "data: ", "\uFEFF") },
      { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 3 }) },
    );
    const text = fc.string({ unit, maxLength: 12 });
    const retry = fc.oneof(fc.nat(100_000), fc.integer({ min: -5, max: -1 }), fc.double({ min: -10, max: 10 }));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            data: text,
            event: fc.option(text, { nil: undefined }),
            id: fc.option(text, { nil: undefined }),
            retry: fc.option(retry, { nil: undefined }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        (messages, at) => {
          const stream = messages.map((message) => formatSse(message)).join("");
          // No bare \r reaches the wire: every line ends with exactly one \n.
          expect(stream).not.toContain("\r");
          const read = parse(cut(stream, at));
          expect(read.messages).toHaveLength(messages.length);
          messages.forEach((message, index) => {
            const got = read.messages[index];
            // Line breaks inside the payload come back as "\n" (the wire format cannot tell \r\n, \r and \n apart).
            expect(got?.data).toBe(message.data.replace(/\r\n|\r/gu, "\n"));
            const event = message.event?.replace(/[\r\n]/gu, "");
            expect(got?.event).toBe(event === undefined || event === "" ? undefined : event);
            // A parser ignores an id with a NUL, which formatSse removes.
            expect(got?.id).toBe(message.id?.replace(/[\r\n\0]/gu, ""));
          });
          // -0 is a whole number >= 0 too, and goes on the wire as 0.
          expect(read.retries).toEqual(
            messages.flatMap((message) =>
              message.retry !== undefined && Number.isInteger(message.retry) && message.retry >= 0
                ? [Math.abs(message.retry)]
                : [],
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
