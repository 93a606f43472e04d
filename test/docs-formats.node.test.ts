import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createJsonStreamParser } from "../src/json.ts";
import { createToolCallReader } from "../src/plan.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const doc = readFileSync(`${root}docs/formats.md`, "utf8");

/** Every example of the page: a text block, "reads as" or "parses as", then a json block. */
const examples = [
  ...doc.matchAll(/(`{3,4})text\n([\s\S]*?)\n\1\n\n(reads|parses) as\n\n```json\n([\s\S]*?)\n```/gu),
].map((match) => ({
  text: match[2]!,
  how: match[3] as "reads" | "parses",
  expected: JSON.parse(match[4]!) as unknown,
}));

function readAll(text: string): unknown[] {
  const reader = createToolCallReader();
  const steps = Array.from(text).flatMap((character) => reader.write(character));
  return [...steps, ...reader.end().steps];
}

describe("docs/formats.md", () => {
  it("has examples", () => {
    expect(examples.length).toBe(14);
  });

  for (const example of examples) {
    it(`${example.how} ${JSON.stringify(example.text.slice(0, 60))} as shown`, () => {
      if (example.how === "reads") {
        expect(readAll(example.text)).toEqual(example.expected);
      } else {
        const parser = createJsonStreamParser();
        parser.write(example.text);
        expect(parser.end()).toEqual(example.expected);
      }
    });
  }

  it("shows repairs in its table that the parser makes, whole and split at every offset", () => {
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` \| `([^`]+)` \| `([^`]+)` \|$/gmu)];
    expect(rows.length).toBeGreaterThanOrEqual(25);
    for (const [, kind, written, read] of rows) {
      for (let at = 0; at <= written!.length; at++) {
        const parser = createJsonStreamParser();
        parser.write(written!.slice(0, at));
        parser.write(written!.slice(at));
        expect(parser.end(), `${written} split at ${at}`).toEqual(JSON.parse(read!));
        expect(
          parser.repairs.map((repair) => repair.kind),
          written,
        ).toContain(kind);
      }
    }
  });
});
