import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { checkPlanStep } from "../../src/plan/check-plan-step.ts";
import { PlanStepSchema } from "../../src/plan.ts";

/** What `v.safeParse(PlanStepSchema, …)` says, in the shape of `checkPlanStep`. */
function schemaVerdict(candidate: Record<string, unknown>) {
  const parsed = v.safeParse(PlanStepSchema, candidate);
  return parsed.success
    ? { ok: true, step: parsed.output }
    : {
        ok: false,
        problems: parsed.issues.map((issue) => ({
          path: (issue.path ?? []).map((item) => item.key),
          message: issue.message,
          input: issue.input,
        })),
      };
}

const values = fc.constantFrom<unknown>(
  undefined,
  null,
  true,
  "",
  "s1",
  "s 1",
  "a.b",
  "x[0]",
  "context",
  "步骤1",
  "tool",
  "llm",
  "reply",
  "search",
  0,
  -1,
  1.5,
  -2.5,
  3,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  [],
  ["s1"],
  ["s1", "", 3, "context"],
  {},
  { query: "x" },
);
const keys = [
  "id",
  "type",
  "name",
  "arguments",
  "prompt",
  "text",
  "dependsOn",
  "description",
  "retries",
  "timeoutMs",
  "extra",
];
const candidates = fc.record(
  {
    ...Object.fromEntries(keys.map((key) => [key, values])),
    type: fc.constantFrom<unknown>("tool", "llm", "reply", "search", undefined, 1),
  },
  { requiredKeys: [] },
);

describe("checkPlanStep", () => {
  it("agrees with the step schemas on every candidate: verdict, step, and each problem's path, message and value", () => {
    fc.assert(
      fc.property(candidates, (candidate) => {
        const actual = checkPlanStep(candidate);
        expect(actual).toEqual(schemaVerdict(candidate));
        if (actual.ok) expect(Object.keys(actual.step)).toEqual(Object.keys(schemaVerdict(candidate).step ?? {}));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps the fields of the step's type in schema order and drops the rest", () => {
    const checked = checkPlanStep({
      retries: 1,
      extra: 1,
      arguments: { q: 1 },
      name: "search",
      type: "tool",
      id: "s1",
    });
    expect(checked).toEqual({
      ok: true,
      step: { id: "s1", type: "tool", name: "search", arguments: { q: 1 }, retries: 1 },
    });
    expect(checked.ok && Object.keys(checked.step)).toEqual(["id", "type", "name", "arguments", "retries"]);
  });

  it("reports every rule a value breaks once its type is right, and only the type when it is wrong", () => {
    expect(checkPlanStep({ id: "", type: "reply", text: "hi", retries: -1.5, timeoutMs: "5" })).toEqual({
      ok: false,
      problems: [
        { path: ["id"], message: "a step id must not be empty", input: "" },
        { path: ["id"], message: "a step id must not contain whitespace, dots, braces or brackets", input: "" },
        { path: ["retries"], message: "retries must be an integer", input: -1.5 },
        { path: ["retries"], message: "retries must not be negative", input: -1.5 },
        { path: ["timeoutMs"], message: "timeoutMs must be a number", input: "5" },
      ],
    });
  });

  it("names a missing field, an unknown type and a bad id inside dependsOn", () => {
    expect(checkPlanStep({ id: "s1", type: "llm" })).toEqual({
      ok: false,
      problems: [
        { path: ["prompt"], message: 'Invalid key: Expected "prompt" but received undefined', input: undefined },
      ],
    });
    expect(checkPlanStep({ id: "s1", type: "search" })).toEqual({
      ok: false,
      problems: [{ path: ["type"], message: 'type must be "tool", "llm" or "reply"', input: "search" }],
    });
    expect(checkPlanStep({ id: "s2", type: "reply", text: "x", dependsOn: ["s1", "context"] })).toEqual({
      ok: false,
      problems: [
        { path: ["dependsOn", 1], message: '"context" is reserved for run-context references', input: "context" },
      ],
    });
  });
});
