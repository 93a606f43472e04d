import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeJsonl } from "../../src/events/encode-jsonl.ts";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import { canonicalJson } from "../../src/shared/canonical-json.ts";

/** Deep equality where numbers compare as `Object.is` does: the rule cache keys follow. */
function sameValue(left: unknown, right: unknown): boolean {
  if (typeof left !== "object" || left === null || typeof right !== "object" || right === null)
    return Object.is(left, right);
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => sameValue(item, right[index]));
  const leftKeys = Object.keys(left).sort();
  const rightKeys = Object.keys(right).sort();
  return (
    leftKeys.length === rightKeys.length &&
    leftKeys.every(
      (key, index) =>
        key === rightKeys[index] &&
        sameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
    )
  );
}

const awkwardNumbers = [0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, -1, 1e21, 5e-324];

/** Values from a small world, so that equal pairs come up often. */
const { value: smallValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("array"), tie("object")),
  leaf: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom("", "0", "null", "NaN", "-0", "a"),
    fc.constantFrom(...awkwardNumbers),
  ),
  array: fc.array(tie("value"), { maxLength: 2 }),
  object: fc.dictionary(fc.constantFrom("a", "b", "NaN"), tie("value"), { maxKeys: 2 }),
}));

/** Any JSON value. */
const anyValue = fc.jsonValue();
const anyNumber = fc.oneof(fc.double(), fc.constantFrom(...awkwardNumbers));

/** A deep copy with every object's keys written in reverse order. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse())
    Object.defineProperty(copy, key, {
      value: reorder((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

describe("canonicalJson", () => {
  it("gives equal keys exactly to deep-equal values (numbers compared as Object.is does)", () => {
    fc.assert(
      fc.property(smallValue, smallValue, (left, right) => {
        expect(canonicalJson(left) === canonicalJson(right)).toBe(sameValue(left, right));
      }),
      { numRuns: 2000 },
    );
  });

  it("tells every two different numbers apart, and JSON numbers are still written as JSON", () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, (left, right) => {
        expect(canonicalJson({ x: left }) === canonicalJson({ x: right })).toBe(Object.is(left, right));
        if (Number.isFinite(left)) expect(Object.is(JSON.parse(canonicalJson(left)), left)).toBe(true);
      }),
    );
  });

  it("ignores the order keys were written in, and is JSON.parse-able for JSON values", () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(canonicalJson(reorder(value))).toBe(canonicalJson(value));
        expect(sameValue(JSON.parse(canonicalJson(value)), value)).toBe(true);
      }),
    );
  });

  it("keys null, 0 and strings apart from the numbers JSON cannot hold", () => {
    const keys = [null, 0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, "NaN", "-0"].map((x) =>
      canonicalJson({ x }),
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(canonicalJson({ b: [1, { d: 1, c: undefined, a: "x" }], a: null })).toBe(
      '{"a":null,"b":[1,{"a":"x","d":1}]}',
    );
  });
});

describe("encodeJsonl and -0", () => {
  it("writes -0 so that the line parses back to -0, and leaves strings that look like the marker alone", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(-0, 0, "-0~", '"-0~"', "-0~~"), fc.string())), (list) => {
        const event = {
          type: "step-end",
          runId: "r",
          t: 0,
          stepId: "s1",
          result: { list },
          durationMs: 0,
          cached: false,
        } as unknown as RuntimeEvent;
        const parsed = JSON.parse(encodeJsonl(event)) as { result: { list: unknown[] } };
        expect(parsed.result.list).toEqual(list);
        parsed.result.list.forEach((item, index) => expect(Object.is(item, list[index])).toBe(true));
      }),
    );
  });
});
