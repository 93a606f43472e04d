import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractJsonObject } from "../../src/shared/extract-json-object.ts";

describe("extractJsonObject", () => {
  it("finds an object inside prose and code fences", () => {
    expect(extractJsonObject('Sure.\n```json\n{"action":"respond","reason":"hi"}\n```\nDone.')).toEqual({
      action: "respond",
      reason: "hi",
    });
  });

  it("skips braces inside strings and unparsable spans", () => {
    expect(extractJsonObject('{not json} then {"reason":"a } in {text","action":"respond"}')).toEqual({
      reason: "a } in {text",
      action: "respond",
    });
    expect(extractJsonObject('{"a":"\\"}"}')).toEqual({ a: '"}' });
  });

  it("prefers an object with the wanted key, else returns the first object", () => {
    expect(extractJsonObject('{"note":1} {"action":"respond"}', "action")).toEqual({ action: "respond" });
    expect(extractJsonObject('{"note":1} {"other":2}', "action")).toEqual({ note: 1 });
  });

  it("returns undefined without an object", () => {
    expect(extractJsonObject("no json here")).toBeUndefined();
    expect(extractJsonObject("[1, 2]")).toBeUndefined();
    expect(extractJsonObject('{"open": ')).toBeUndefined();
  });

  it("recovers any JSON object embedded in brace-free prose", () => {
    const prose = fc.string().map((text) => text.replace(/[{}"]/g, ""));
    fc.assert(
      fc.property(prose, fc.dictionary(fc.string(), fc.jsonValue()), prose, (before, object, after) => {
        expect(extractJsonObject(`${before}${JSON.stringify(object)}${after}`)).toEqual(
          JSON.parse(JSON.stringify(object)),
        );
      }),
    );
  });
});
