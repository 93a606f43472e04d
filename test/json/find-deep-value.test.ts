import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findDeepValue } from "../../src/json.ts";

/** The depth of the deepest object or array below the root, counted the plain recursive way. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return -1;
  const children = Object.values(value).map(depthOf);
  return 1 + Math.max(-1, ...children);
}

/** Follows a JSON pointer from the root. */
function resolve(root: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], root);
}

describe("findDeepValue", () => {
  it("finds a value exactly when something nests deeper than the limit, and points at a container that deep", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        const found = findDeepValue(value, limit);
        expect(found === undefined).toBe(depthOf(value) <= limit);
        if (found === undefined) return;
        expect(found.split("/")).toHaveLength(limit + 2);
        const target = resolve(value, found);
        expect(typeof target === "object" && target !== null).toBe(true);
      }),
    );
  });

  it("measures thousands of levels without recursion, and escapes keys in the pointer", () => {
    let value: unknown = [];
    for (let level = 0; level < 100_000; level++) value = { "a/b~c": value };
    expect(findDeepValue(value, 2)).toBe("/a~1b~0c/a~1b~0c/a~1b~0c");
    expect(findDeepValue({ list: [1, [2, [3]]] }, 3)).toBeUndefined();
    expect(findDeepValue({ list: [1, [2, [3]]] }, 2)).toBe("/list/1/1");
  });
});
