/**
 * Measuring how deep a step nests, without recursion.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findTooDeep } from "../../src/plan/find-too-deep.ts";

/** A value nesting `depth` levels of objects and arrays, alternating. */
function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 1; level <= depth; level++) value = level % 2 === 0 ? [value] : { "a/b~": value };
  return value;
}

describe("findTooDeep", () => {
  it("finds nothing within the limit and the first value past it beyond, for any depth (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 40 }), (depth, limit) => {
        const found = findTooDeep(nested(depth), limit);
        if (depth <= limit) expect(found).toBeUndefined();
        else expect(found).toMatch(/^\/(a~1b~0|0)/u);
      }),
    );
  });

  it("names the path's first four segments, escaped, and measures a value far past the stack's depth", () => {
    expect(findTooDeep({ arguments: { list: [[{ x: 1 }]] } }, 3)).toBe("/arguments/list/0");
    expect(findTooDeep({ a: { b: { c: { d: { e: {} } } } } }, 5)).toBe("/a/b/c/d/…");
    expect(findTooDeep({ "a/b": { "c~d": [1] } }, 2)).toBe("/a~1b/c~0d");
    expect(findTooDeep(nested(100_000), 512)?.endsWith("/…")).toBe(true);
    expect(findTooDeep("text", 0)).toBeUndefined();
  });
});
