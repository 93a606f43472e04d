import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/index.ts";
import { findReferences, referencesOf, resolveReferences } from "../../src/plan.ts";

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("findReferences", () => {
  it("finds references deep in values, with pointers, paths and exactness", () => {
    const found = findReferences(
      { q: "{{s1.title}}", list: ["see {{ s2 }} and {{s3.items[0].name}}"], "a/b~": "{{s4}}", n: 3 },
      "/steps/4/arguments",
    );
    expect(found.map(({ id, path, pointer, exact }) => ({ id, path, pointer, exact }))).toEqual([
      { id: "s1", path: ["title"], pointer: "/steps/4/arguments/q", exact: true },
      { id: "s2", path: [], pointer: "/steps/4/arguments/list/0", exact: false },
      { id: "s3", path: ["items", "0", "name"], pointer: "/steps/4/arguments/list/0", exact: false },
      { id: "s4", path: [], pointer: "/steps/4/arguments/a~1b~0", exact: true },
    ]);
  });

  it('reads path segments with spaces inside (result fields such as "Exchange Rate")', () => {
    const found = findReferences({ rate: "{{s1.Exchange Rate}}", text: "{{ s1.data[0].Last Refreshed }} ok" });
    expect(found.map(({ id, path, exact }) => ({ id, path, exact }))).toEqual([
      { id: "s1", path: ["Exchange Rate"], exact: true },
      { id: "s1", path: ["data", "0", "Last Refreshed"], exact: false },
    ]);
    expect(resolveReferences("{{s1.Exchange Rate}}", new Map([["s1", { "Exchange Rate": 1.5 }]]))).toBe(1.5);
  });

  it("does not search keys, and ignores braces that are not references", () => {
    expect(findReferences({ "{{s1}}": "x", y: "{{}} {{ two words }} {single}" })).toEqual([]);
  });
});

describe("referencesOf", () => {
  it("lists the referenced step ids once each, then extra dependsOn ids, without the run context", () => {
    expect(
      referencesOf({
        id: "s4",
        type: "tool",
        name: "t",
        arguments: { a: "{{s1}}", b: ["{{s2.x}} {{s1.y}}"], c: "{{context.user}}" },
        dependsOn: ["s0", "s2"],
      }),
    ).toEqual(["s1", "s2", "s0"]);
    expect(referencesOf({ id: "s3", type: "llm", prompt: "Summarize {{s1}} in Chinese" })).toEqual(["s1"]);
    expect(referencesOf({ id: "s4", type: "reply", text: "21*2+5 = {{s2.value}}. {{s3}}" })).toEqual(["s2", "s3"]);
  });
});

describe("resolveReferences", () => {
  const results = {
    s1: [
      { title: "Agents survey", year: 2024 },
      { title: "Tool use", year: 2023 },
    ],
    s2: { value: 47, ok: true, none: null },
    s3: "一段中文总结",
  };

  it("gives an exact reference the referenced value with its JSON type", () => {
    expect(
      resolveReferences(
        { n: "{{s2.value}}", ok: "{{s2.ok}}", none: "{{s2.none}}", first: "{{s1.0}}", all: "{{s1}}" },
        results,
      ),
    ).toEqual({
      n: 47,
      ok: true,
      none: null,
      first: { title: "Agents survey", year: 2024 },
      all: results.s1,
    });
  });

  it("puts the value's text inside longer strings: strings as they are, others as JSON", () => {
    expect(resolveReferences("21*2+5 = {{s2.value}}. {{s3}} ({{s1.1.title}}, {{s1.1}})", results)).toBe(
      '21*2+5 = 47. 一段中文总结 (Tool use, {"title":"Tool use","year":2023})',
    );
    expect(resolveReferences(" {{s2.value}}", results)).toBe(" 47");
  });

  it("reads results from a Map and the run context from results.context", () => {
    const map = new Map<string, unknown>([
      ["s1", { rows: [1, 2] }],
      ["context", { user: { name: "Ada" } }],
    ]);
    expect(resolveReferences(["{{s1.rows[1]}}", "Hi {{context.user.name}}"], map)).toEqual([2, "Hi Ada"]);
  });

  it("returns values without references as they are", () => {
    const value = { a: [1, "x", { b: null }], c: "no refs" };
    expect(resolveReferences(value, results)).toBe(value);
    const mixed = { keep: { deep: [1] }, change: "{{s2.value}}" };
    const resolved = resolveReferences(mixed, results) as typeof mixed;
    expect(resolved.keep).toBe(mixed.keep);
    expect(mixed.change).toBe("{{s2.value}}");
  });

  it("keeps a __proto__ key as a plain key", () => {
    const value = JSON.parse('{"__proto__": "{{s2.value}}", "x": 1}') as Record<string, unknown>;
    const resolved = resolveReferences(value, results) as Record<string, unknown>;
    expect(Object.getPrototypeOf(resolved)).toBe(Object.prototype);
    expect(Object.keys(resolved)).toEqual(["__proto__", "x"]);
    expect(Object.getOwnPropertyDescriptor(resolved, "__proto__")?.value).toBe(47);
  });

  it("throws unknown-reference for a missing step or path, or keeps it on request", () => {
    const error = thrown(() => resolveReferences("{{s9}}", results));
    expect(PlankitError.isInstance(error) && error.code).toBe("unknown-reference");
    expect((error as Error).message).toBe('Reference {{s9}} names no completed step "s9"');
    expect((thrown(() => resolveReferences({ x: "{{s2.missing}}" }, results)) as Error).message).toContain(
      '"s2.missing"',
    );
    expect(thrown(() => resolveReferences("{{s1.5.title}}", results))).toBeInstanceOf(PlankitError);
    expect(resolveReferences({ x: "{{s9.a}}", y: "a {{s9}} b {{s2.value}}" }, results, { missing: "keep" })).toEqual({
      x: "{{s9.a}}",
      y: "a {{s9}} b 47",
    });
  });

  it("resolves an exact reference to any JSON value unchanged (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(resolveReferences({ a: "{{v}}", b: ["{{v}}"] }, { v: value })).toEqual({ a: value, b: [value] });
      }),
      { numRuns: 200 },
    );
  });

  it("leaves reference-free JSON values identical (property)", () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((value) => !JSON.stringify(value).includes("{{")),
        (value) => {
          expect(resolveReferences(value, results)).toBe(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});
