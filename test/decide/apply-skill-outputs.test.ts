import { describe, expect, it } from "vitest";
import { applySkillOutputs } from "../../src/decide/apply-skill-outputs.ts";
import type { DecisionState } from "../../src/decide/decision-state.ts";
import { resolvePath } from "../../src/decide/resolve-path.ts";
import type { Skill } from "../../src/decide/skill.ts";
import { catchPlankitError } from "../fixtures/catch-plankit-error.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const intake: Skill = {
  name: "intake",
  outputs: { provides: ["profile.name", "profile.address.city", "decisions.plan", "budget", "dates"] },
};

describe("applySkillOutputs", () => {
  it("writes profile, nested profile, decisions and data leaves, and leaves the input state alone", () => {
    const state: DecisionState = deepFreeze({
      profile: { name: "Ada", address: { street: "Main St" } },
      data: { trip: { budget: 900 } },
    });
    const applied = applySkillOutputs(state, intake, {
      "profile.address.city": "Lisbon",
      "decisions.plan": "economy",
      budget: 1200,
      dates: ["2026-05-01"],
    });
    expect(applied.state).toEqual({
      profile: { name: "Ada", address: { street: "Main St", city: "Lisbon" } },
      decisions: { plan: "economy" },
      data: { trip: { budget: 1200 }, intake: { dates: ["2026-05-01"] } },
    });
    expect(applied.written).toEqual(["profile.address.city", "decisions.plan", "budget", "dates"]);
    expect(applied.changed).toEqual(applied.written);
    expect(state).toEqual({
      profile: { name: "Ada", address: { street: "Main St" } },
      data: { trip: { budget: 900 } },
    });
  });

  it("writes a leaf into the group the engine reads it from, so the new value is the one resolved", () => {
    const state: DecisionState = { data: { first: { budget: "" }, second: { budget: 500 }, third: { budget: 700 } } };
    const applied = applySkillOutputs(state, intake, { budget: 650 });
    expect(applied.state.data).toEqual({ first: { budget: "" }, second: { budget: 650 }, third: { budget: 700 } });
    expect(resolvePath(applied.state, "budget")).toEqual({ found: true, value: 650 });
    const empty = applySkillOutputs({ data: { a: { budget: null }, b: { budget: "" } } }, intake, { budget: 1 });
    expect(empty.state.data).toEqual({ a: { budget: 1 }, b: { budget: "" } });
  });

  it("skips provided paths the result leaves out or sets to undefined, and tells written from changed", () => {
    const applied = applySkillOutputs({ profile: { name: "Ada" } }, intake, {
      "profile.name": "Ada",
      budget: undefined,
    });
    expect(applied.written).toEqual(["profile.name"]);
    expect(applied.changed).toEqual([]);
    expect(applied.state).toEqual({ profile: { name: "Ada" } });
    expect(applySkillOutputs({}, intake, {}).written).toEqual([]);
  });

  it("clears a goal when the result sets it to null", () => {
    const applied = applySkillOutputs({ data: { trip: { budget: 900 } } }, intake, { budget: null });
    expect(applied.state.data).toEqual({ trip: { budget: null } });
    expect(applied.changed).toEqual(["budget"]);
  });

  it("copies values so the state shares nothing with the tool", () => {
    const dates = ["2026-05-01"];
    const applied = applySkillOutputs({}, intake, { dates });
    dates.push("2026-05-08");
    expect(resolvePath(applied.state, "dates")).toEqual({ found: true, value: ["2026-05-01"] });
  });

  it("keeps __proto__ an ordinary key", () => {
    const odd: Skill = { name: "odd", outputs: { provides: ["__proto__"] } };
    const result = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const applied = applySkillOutputs({}, odd, result);
    const group = applied.state.data?.["odd"] as Record<string, unknown>;
    expect(Object.hasOwn(group, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(group)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses a result that is not an object, with what the skill provides", async () => {
    for (const result of [null, "Lisbon", ["Lisbon"], 3]) {
      const error = await catchPlankitError(() => applySkillOutputs({}, intake, result));
      expect(error.code).toBe("invalid-output");
      expect(error.message).toContain('Skill "intake" returned');
      expect(error.message).toContain("profile.name, profile.address.city");
    }
  });

  it("refuses a key the skill does not provide, naming it", async () => {
    const error = await catchPlankitError(() => applySkillOutputs({}, intake, { destinaton: "Lisbon" }));
    expect(error.code).toBe("invalid-output");
    expect(error.message).toContain('"destinaton"');
    expect(error.message).toContain("outputs.provides");
  });

  it("refuses a provided path that is not a state path", async () => {
    const bad: Skill = { name: "bad", outputs: { provides: ["data.trip.budget"] } };
    const error = await catchPlankitError(() => applySkillOutputs({}, bad, { "data.trip.budget": 1 }));
    expect(error.code).toBe("invalid-path");
    expect(error.message).toContain('"data.trip.budget"');
  });
});
