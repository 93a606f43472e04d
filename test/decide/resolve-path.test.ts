import { describe, expect, it } from "vitest";
import { isPathPresent } from "../../src/decide/is-path-present.ts";
import { isPresent } from "../../src/decide/is-present.ts";
import { parseStatePath } from "../../src/decide/parse-state-path.ts";
import { resolvePath } from "../../src/decide/resolve-path.ts";
import { PlankitError } from "../../src/errors/plankit-error.ts";

describe("parseStatePath", () => {
  it("reads profile, decisions and leaf paths", () => {
    expect(parseStatePath("profile.name")).toEqual({ kind: "profile", field: "name", rest: [] });
    expect(parseStatePath("profile.address.city")).toEqual({ kind: "profile", field: "address", rest: ["city"] });
    expect(parseStatePath("decisions.plan")).toEqual({ kind: "decisions", field: "plan", rest: [] });
    expect(parseStatePath("budget")).toEqual({ kind: "leaf", name: "budget" });
  });

  it("rejects state. prefixes, data groups, other dotted roots and empty segments", () => {
    const problem = (path: string): string => {
      const parsed = parseStatePath(path);
      if (parsed.kind !== "invalid") throw new Error(`${path} parsed as ${parsed.kind}`);
      return parsed.problem;
    };
    expect(problem("state.profile.name")).toContain('write "profile.name"');
    expect(problem("data.trip.budget")).toContain('write "budget"');
    expect(problem("trip.budget")).toContain('"profile." or "decisions."');
    expect(problem("profile")).toContain("profile.<field>");
    expect(problem("profile..name")).toContain("empty");
    expect(problem("my budget")).toContain("whitespace");
    expect(problem("")).toContain("empty");
  });
});

describe("isPresent", () => {
  it("treats undefined, null, empty strings, arrays and objects as missing", () => {
    for (const value of [undefined, null, "", [], {}]) expect(isPresent(value)).toBe(false);
    for (const value of [0, false, "x", [0], { a: 1 }]) expect(isPresent(value)).toBe(true);
  });
});

describe("resolvePath", () => {
  const state = {
    profile: { name: "Ada", address: { city: "Lisbon" } },
    decisions: { plan: "A" },
    data: { first: { budget: "", note: "x" }, second: { budget: 900 }, third: { budget: 5 } },
  };

  it("resolves profile and decisions fields, nested ones too", () => {
    expect(resolvePath(state, "profile.name")).toEqual({ found: true, value: "Ada" });
    expect(resolvePath(state, "profile.address.city")).toEqual({ found: true, value: "Lisbon" });
    expect(resolvePath(state, "decisions.plan")).toEqual({ found: true, value: "A" });
    expect(resolvePath(state, "profile.phone")).toEqual({ found: false });
    expect(resolvePath(state, "profile.name.first")).toEqual({ found: false });
  });

  it("finds a data leaf in any group, preferring the first group where it is present", () => {
    expect(resolvePath(state, "budget")).toEqual({ found: true, value: 900 });
    expect(resolvePath(state, "note")).toEqual({ found: true, value: "x" });
    expect(resolvePath({ data: { a: { budget: "" } } }, "budget")).toEqual({ found: true, value: "" });
    expect(resolvePath(state, "missing_leaf")).toEqual({ found: false });
    expect(resolvePath({}, "budget")).toEqual({ found: false });
  });

  it("does not read inherited properties", () => {
    expect(resolvePath({ data: { group: {} } }, "toString")).toEqual({ found: false });
    expect(resolvePath({ profile: {} }, "profile.constructor")).toEqual({ found: false });
  });

  it("throws invalid-path for a path that is not a state path", () => {
    let caught: unknown;
    try {
      resolvePath(state, "state.profile.name");
    } catch (error) {
      caught = error;
    }
    expect(PlankitError.isInstance(caught) && caught.code).toBe("invalid-path");
    expect((caught as Error).message).toContain('"state.profile.name"');
  });

  it("isPathPresent combines resolution and presence", () => {
    expect(isPathPresent(state, "budget")).toBe(true);
    expect(isPathPresent(state, "profile.phone")).toBe(false);
    expect(isPathPresent({ data: { a: { budget: "" } } }, "budget")).toBe(false);
  });
});
