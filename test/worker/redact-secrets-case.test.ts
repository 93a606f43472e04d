import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactBody } from "../../worker/http/redact-body.ts";
import { createRedactor } from "../../worker/http/redact-secrets.ts";

/** Lower case one UTF-16 unit at a time, where that stays one unit. */
function fold(text: string): string {
  let folded = "";
  for (let index = 0; index < text.length; index++) {
    const unit = text.charAt(index);
    const lower = unit.toLowerCase();
    folded += lower.length === 1 ? lower : unit;
  }
  return folded;
}

/** The plain reading of the rule: at each offset, the longest secret (either form, any case) that begins there. */
function redactSlowly(secrets: readonly string[], text: string): string {
  const needles = secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]).map(fold);
  const folded = fold(text);
  let out = "";
  for (let index = 0; index < text.length; ) {
    const length = Math.max(
      0,
      ...needles.filter((needle) => folded.startsWith(needle, index)).map((needle) => needle.length),
    );
    out += length > 0 ? "[redacted]" : text.charAt(index);
    index += Math.max(length, 1);
  }
  return out;
}

/** Streams `parts` through `redactBody`, and reads it back. */
async function throughStream(parts: readonly string[], secrets: string[]): Promise<string> {
  const encoder = new TextEncoder();
  const queue = [...parts];
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
  return new Response(redactBody(source, createRedactor(secrets))).text();
}

/** Cuts `text` at `cuts` (taken modulo its length). */
function cutAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    parts.push(text.slice(from, point));
    from = point;
  }
  return parts;
}

describe("redaction ignores case", () => {
  // Letters in both cases, regular-expression syntax, a JSON escape, and letters whose case changes length.
  const unit = fc.constantFrom("a", "A", "b", "B", ".", "*", "(", "[", "\\", "$", '"', "ä", "Ä", "İ", "i");
  const secret = fc.string({ unit, minLength: 1, maxLength: 5 });
  const text = fc.string({ unit: fc.oneof(unit, fc.constantFrom("x", "?")), maxLength: 60 });

  it("redacts what the plain rule redacts, whatever the case, and the same however a stream is cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        text,
        fc.array(fc.nat(), { maxLength: 6 }),
        async (secrets, input, cuts) => {
          const whole = createRedactor(secrets)(input);
          expect(whole).toBe(redactSlowly(secrets, input));
          expect(await throughStream(cutAt(input, cuts), secrets)).toBe(whole);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("redacts a token a tool wrote in capitals, whole or split across chunks", async () => {
    const token = "tok-secret-7f3a9c";
    const leaked = `{"echo":"Tok-SECRET-7F3A9C","again":"TOK-secret-7f3a9c"}`;
    expect(createRedactor([token])(leaked)).toBe('{"echo":"[redacted]","again":"[redacted]"}');
    for (let cut = 0; cut <= leaked.length; cut++) {
      expect(await throughStream([leaked.slice(0, cut), leaked.slice(cut)], [token])).toBe(
        '{"echo":"[redacted]","again":"[redacted]"}',
      );
    }
  });

  it("reads a secret as text, never as a pattern", () => {
    expect(createRedactor(["a.c"])("abc a.c A.C")).toBe("abc [redacted] [redacted]");
    expect(createRedactor(["(x|y)*"])("x y xy (X|Y)*")).toBe("x y xy [redacted]");
    expect(createRedactor(["^$"])("^$ $^")).toBe("[redacted] $^");
  });

  it("finds a secret that repeats itself inside a long run of its own beginning", () => {
    const secret = `${"a".repeat(300)}b`;
    const input = `${"A".repeat(100_000)}B${"a".repeat(100_000)}`;
    expect(createRedactor([secret])(input)).toBe(`${"A".repeat(100_000 - 300)}[redacted]${"a".repeat(100_000)}`);
  });
});
