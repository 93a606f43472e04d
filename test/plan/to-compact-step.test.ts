import { describe, expect, it } from "vitest";
import { normalizeStep } from "../../src/plan/normalize-step.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import { toCompactStep } from "../../src/plan/to-compact-step.ts";

const steps: PlanStep[] = [
  { id: "s1", type: "tool", name: "kb_search", arguments: { query: "Tokyo", limit: 2 } },
  { id: "s2", type: "llm", prompt: "Summarize {{s1}}", dependsOn: ["s1"] },
  {
    id: "s3",
    type: "tool",
    name: "save_note",
    arguments: { text: "{{s2}}" },
    retries: 2,
    timeoutMs: 500,
    description: "Keep it",
  },
  { id: "s4", type: "reply", text: "Done: {{s2}}" },
];

describe("toCompactStep", () => {
  it("writes each step type in its compact shape", () => {
    expect(steps.map(toCompactStep)).toStrictEqual([
      { id: "s1", tool: "kb_search", args: { query: "Tokyo", limit: 2 } },
      { id: "s2", prompt: "Summarize {{s1}}", dependsOn: ["s1"] },
      { id: "s3", tool: "save_note", args: { text: "{{s2}}" }, description: "Keep it", retries: 2, timeoutMs: 500 },
      { id: "s4", reply: "Done: {{s2}}" },
    ]);
  });

  it("round-trips through normalizeStep", () => {
    steps.forEach((step, index) => {
      expect(normalizeStep(toCompactStep(step), index)).toStrictEqual({ step, issues: [] });
    });
  });

  it("spends fewer characters than the canonical shape", () => {
    const canonical = JSON.stringify(steps).length;
    const compact = JSON.stringify(steps.map(toCompactStep)).length;
    expect(compact).toBeLessThan(canonical * 0.85);
  });

  it("is read without ids, taking the position", () => {
    expect(normalizeStep({ reply: "Hi" }, 4)).toStrictEqual({
      step: { id: "s5", type: "reply", text: "Hi" },
      issues: [],
    });
  });
});
