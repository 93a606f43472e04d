/**
 * Looking references up: only a step's own data is reachable (no inherited
 * property such as `constructor`), numeric segments index arrays within their
 * bounds, and a missing step or path is refused or kept.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/index.ts";
import { resolveReferences } from "../../src/plan.ts";

/** The code and message of the error a resolution throws, or `ok: <value>`. */
function outcome(run: () => unknown): string {
  try {
    return `ok: ${JSON.stringify(run())}`;
  } catch (error) {
    if (PlankitError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

const inherited = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "length", "at", "map"];

describe("resolveReferences: what a path reaches", () => {
  const twelve = Array.from({ length: 12 }, (_, index) => `item ${index}`);
  const results = {
    list: ["a", "b", "c"],
    twelve,
    record: { name: "Ada", nested: { n: 1 } },
    text: "hello",
    nothing: null,
  };

  it("indexes an array from 0 to its length - 1, two-digit indexes included", () => {
    expect(resolveReferences("{{list.0}}", results)).toBe("a");
    expect(resolveReferences("{{list.2}}", results)).toBe("c");
    expect(resolveReferences("{{list[2]}}", results)).toBe("c");
    expect(resolveReferences("{{twelve.11}}", results)).toBe("item 11");
    expect(resolveReferences("{{twelve[10]}}", results)).toBe("item 10");
  });

  it("refuses an index equal to or past the array's length", () => {
    expect(outcome(() => resolveReferences("{{list.3}}", results))).toBe(
      'unknown-reference: Reference {{list.3}} names a missing step or path "list.3"',
    );
    expect(outcome(() => resolveReferences("{{list[4]}}", results))).toBe(
      'unknown-reference: Reference {{list[4]}} names a missing step or path "list.4"',
    );
    expect(outcome(() => resolveReferences("{{twelve.12}}", results))).toContain("unknown-reference");
    expect(resolveReferences("x {{list.3}}", results, { missing: "keep" })).toBe("x {{list.3}}");
  });

  it("does not index an array with a segment that is not all digits", () => {
    for (const segment of ["x", "1x", "x1", "length", "-1"]) {
      expect(outcome(() => resolveReferences(`{{list.${segment}}}`, results))).toMatch(/^unknown-reference: /u);
    }
  });

  it("reaches only own properties: nothing inherited from Object.prototype, Array.prototype or String.prototype", () => {
    for (const id of ["list", "record", "text", "nothing"]) {
      for (const name of inherited) {
        expect(outcome(() => resolveReferences(`{{${id}.${name}}}`, results))).toBe(
          `unknown-reference: Reference {{${id}.${name}}} names a missing step or path "${id}.${name}"`,
        );
      }
    }
    expect(outcome(() => resolveReferences("{{record.nested.constructor.name}}", results))).toMatch(
      /^unknown-reference: /u,
    );
    // An own key of that name is data like any other.
    expect(resolveReferences("{{own.constructor}}", { own: { constructor: "mine" } })).toBe("mine");
  });

  it("reaches no step id inherited by a record of results, and none missing from a Map", () => {
    expect(outcome(() => resolveReferences("{{constructor}}", results))).toBe(
      'unknown-reference: Reference {{constructor}} names no completed step "constructor"',
    );
    expect(outcome(() => resolveReferences("{{toString}}", {}))).toMatch(/^unknown-reference: /u);
    const map = new Map<string, unknown>([["s1", { a: 1 }]]);
    expect(outcome(() => resolveReferences("{{s2}}", map))).toBe(
      'unknown-reference: Reference {{s2}} names no completed step "s2"',
    );
    expect(outcome(() => resolveReferences("{{s2.a}}", map))).toBe(
      'unknown-reference: Reference {{s2.a}} names a missing step or path "s2.a"',
    );
    expect(resolveReferences("{{s2}} and {{s1.a}}", map, { missing: "keep" })).toBe("{{s2}} and 1");
    expect(resolveReferences("{{s2}}", map, { missing: "keep" })).toBe("{{s2}}");
  });

  it("writes a step whose result is undefined as nothing inside text, and gives it as it is when exact", () => {
    const map = new Map<string, unknown>([["s1", undefined]]);
    expect(resolveReferences("a {{s1}} b", map)).toBe("a  b");
    expect(resolveReferences("{{s1}}", map)).toBeUndefined();
    expect(resolveReferences("a {{s1}} b", { s1: undefined })).toBe("a  b");
  });

  it("builds resolved objects as ordinary data a tool may change", () => {
    const resolved = resolveReferences({ n: "{{record.nested.n}}", keep: 2 }, results) as Record<string, unknown>;
    for (const key of ["n", "keep"]) {
      expect(Object.getOwnPropertyDescriptor(resolved, key)).toEqual({
        value: resolved[key],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    resolved["n"] = 5;
    delete resolved["keep"];
    expect(resolved).toEqual({ n: 5 });
  });
});

/** What a path reaches, looked up by hand: own keys of plain objects, in-bounds digit segments of arrays. */
function reach(root: unknown, path: readonly string[]): { found: true; value: unknown } | { found: false } {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node)) {
      const index = /^[0-9]+$/u.test(segment) ? Number.parseInt(segment, 10) : -1;
      if (index < 0 || index > node.length - 1) return { found: false };
      node = node[index];
    } else if (node !== null && typeof node === "object" && Object.keys(node).includes(segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: node };
}

describe("resolveReferences: any path (property)", () => {
  const key = fc.constantFrom("a", "b", "name", "0", "1", "constructor", "toString", "length");
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.integer(),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
      tie("array"),
      tie("object"),
    ),
    array: fc.array(tie("node"), { maxLength: 4 }),
    object: fc.dictionary(key, tie("node"), { maxKeys: 4 }),
  })).node;
  const segment = fc.oneof(key, fc.constantFrom("2", "3", "4", "__proto__", "valueOf", "x0", "0x"));

  it("resolves a reference to what the path reaches by hand, and refuses it when the path reaches nothing", () => {
    fc.assert(
      fc.property(value, fc.array(segment, { maxLength: 3 }), fc.boolean(), (root, path, asMap) => {
        const reference = `{{v${path.map((part) => `.${part}`).join("")}}}`;
        const results = asMap ? new Map([["v", root]]) : { v: root };
        const expected = reach(root, path);
        if (expected.found) {
          expect(resolveReferences(reference, results)).toEqual(expected.value);
          const text = typeof expected.value === "string" ? expected.value : JSON.stringify(expected.value);
          expect(resolveReferences(`<${reference}>`, results)).toBe(`<${text}>`);
        } else {
          expect(outcome(() => resolveReferences(reference, results))).toMatch(/^unknown-reference: /u);
          expect(resolveReferences(`<${reference}>`, results, { missing: "keep" })).toBe(`<${reference}>`);
        }
      }),
      { numRuns: 500 },
    );
  });
});
