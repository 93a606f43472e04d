import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { type Condition, ConditionSchema } from "../../src/decide/condition.ts";
import { describeCondition } from "../../src/decide/describe-condition.ts";
import { evaluateCondition } from "../../src/decide/evaluate-condition.ts";
import { PlankitError } from "../../src/errors/plankit-error.ts";

const state = {
  profile: { name: "Ada", age: 36 },
  decisions: { tier: "gold" },
  data: { trip: { budget: 900, tags: ["sea"], empty: "" } },
};
const holds = (condition: Condition): boolean => evaluateCondition(condition, state);

describe("evaluateCondition", () => {
  it("tests presence", () => {
    expect(holds({ path: "profile.name", op: "present" })).toBe(true);
    expect(holds({ path: "empty", op: "present" })).toBe(false);
    expect(holds({ path: "empty", op: "missing" })).toBe(true);
    expect(holds({ path: "profile.phone", op: "missing" })).toBe(true);
  });

  it("compares with deep equality", () => {
    expect(holds({ path: "tags", op: "eq", value: ["sea"] })).toBe(true);
    expect(holds({ path: "decisions.tier", op: "neq", value: "gold" })).toBe(false);
    expect(holds({ path: "profile.phone", op: "eq", value: null })).toBe(false);
    expect(holds({ path: "profile.phone", op: "neq", value: null })).toBe(true);
    expect(holds({ path: "decisions.tier", op: "in", value: ["silver", "gold"] })).toBe(true);
    expect(holds({ path: "decisions.tier", op: "in", value: [] })).toBe(false);
  });

  it("orders numbers with numbers and strings with strings only", () => {
    expect(holds({ path: "budget", op: "gt", value: 100 })).toBe(true);
    expect(holds({ path: "budget", op: "gte", value: 900 })).toBe(true);
    expect(holds({ path: "budget", op: "lt", value: 900 })).toBe(false);
    expect(holds({ path: "budget", op: "lte", value: 900 })).toBe(true);
    expect(holds({ path: "profile.name", op: "lt", value: "Bob" })).toBe(true);
    expect(holds({ path: "budget", op: "gt", value: "100" })).toBe(false);
    expect(holds({ path: "profile.phone", op: "lt", value: 5 })).toBe(false);
  });

  it("combines with all, any and not", () => {
    const name = { path: "profile.name", op: "present" } as const;
    const phone = { path: "profile.phone", op: "present" } as const;
    expect(holds({ all: [name, phone] })).toBe(false);
    expect(holds({ any: [name, phone] })).toBe(true);
    expect(holds({ not: phone })).toBe(true);
    expect(holds({ all: [] })).toBe(true);
    expect(holds({ any: [] })).toBe(false);
  });

  it("uses the default path for leaves without one, and throws without a default", () => {
    expect(evaluateCondition({ op: "eq", value: "gold" }, state, "decisions.tier")).toBe(true);
    let caught: unknown;
    try {
      evaluateCondition({ op: "present" }, state);
    } catch (error) {
      caught = error;
    }
    expect(PlankitError.isInstance(caught) && caught.code).toBe("invalid-path");
  });

  it("describes conditions for traces", () => {
    expect(describeCondition({ all: [{ path: "a", op: "present" }, { not: { path: "b", op: "gt", value: 2 } }] })).toBe(
      "all(a present, not(b gt 2))",
    );
    expect(describeCondition({ op: "eq", value: true }, "decisions.ok")).toBe("decisions.ok eq true");
  });
});

describe("ConditionSchema", () => {
  const message = (input: unknown): string => {
    const result = v.safeParse(ConditionSchema, input);
    if (result.success) throw new Error(`accepted ${JSON.stringify(input)}`);
    return result.issues[0].message;
  };

  it("accepts well-formed conditions", () => {
    for (const input of [
      { path: "a", op: "present" },
      { path: "a", op: "eq", value: null },
      { op: "in", value: [1] },
      { any: [{ all: [] }, { not: { path: "a", op: "lte", value: "z" } }] },
    ]) {
      expect(v.safeParse(ConditionSchema, input).success).toBe(true);
    }
  });

  it("names the exact problem and where it is", () => {
    expect(message({ path: "a", op: "bogus" })).toContain('at /op: unknown operator "bogus"');
    expect(message({ all: [{ path: "a", op: "in", value: 3 }] })).toBe(
      'at /all/0/value: operator "in" needs an array "value"',
    );
    expect(message({ path: "a", op: "eq" })).toBe('operator "eq" needs a "value"');
    expect(message({ path: "a", op: "present", value: 1 })).toContain('takes no "value"');
    expect(message({ path: "a", op: "gt", value: [1] })).toContain("number or string");
    expect(message({ all: [], any: [] })).toContain("only key");
    expect(message({ any: "x" })).toContain("array of conditions");
    expect(message({ path: 3, op: "present" })).toContain('"path" must be a string');
    expect(message({ path: "a", op: "present", extra: 1 })).toContain('unexpected key "extra"');
    expect(message({ path: "a" })).toContain('needs "op"');
    expect(message("a present")).toBe("a condition must be an object");
  });
});
