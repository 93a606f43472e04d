import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/index.ts";
import { createPlanValidator, validateStep } from "../../src/plan.ts";
import { exampleTools, mcpTools } from "../fixtures/tools/example-tools.ts";

describe("validateStep", () => {
  it("validates a plan one streamed step at a time", () => {
    const steps: PlanStep[] = [];
    const raws = [
      { step_id: "step_1", action: "use_tool", tool: "arxiv_search", params: { query: "agents" } },
      { type: "tool", name: "calculator", arguments: { expr: "{{step_1.total}} * 2" } },
      { type: "reply", text: "{{s2.value}}" },
    ];
    raws.forEach((raw) => {
      const { step, issues } = validateStep(raw, { tools: mcpTools, steps });
      expect(issues).toEqual([]);
      if (step !== undefined) steps.push(step);
    });
    expect(steps.map((step) => step.id)).toEqual(["step_1", "s2", "s3"]);
  });

  it("uses index for the default id and paths, and knows only the steps given", () => {
    const result = validateStep(
      { type: "llm", prompt: "Compare {{s2}} and {{s9}}" },
      { tools: exampleTools, steps: [], index: 4 },
    );
    expect(result.step).toEqual({ id: "s5", type: "llm", prompt: "Compare {{s2}} and {{s9}}" });
    expect(result.issues.map((issue) => issue.message)).toEqual([
      'Step "s5" references unknown step "s2" (/steps/4/prompt)',
      'Step "s5" references unknown step "s9" (/steps/4/prompt)',
    ]);
  });

  it("tells forward references apart when the whole plan is known, and names rejected steps", () => {
    const context = {
      tools: exampleTools,
      steps: [],
      index: 0,
      plannedIds: new Map([["later", 3]]),
      rejectedIds: new Set(["bad"]),
    };
    expect(
      validateStep({ type: "llm", prompt: "{{later}} {{bad}}" }, context).issues.map((issue) => issue.code),
    ).toEqual(["forward-reference", "unknown-reference"]);
  });

  it("checks maxSteps before anything else", () => {
    expect(
      validateStep({ type: "reply", text: "x" }, { tools: exampleTools, steps: [], index: 2, maxSteps: 2 }).issues,
    ).toEqual([
      {
        code: "too-many-steps",
        index: 2,
        stepId: "s3",
        path: "/steps/2",
        message: 'Step "s3" exceeds the limit of 2 steps (/steps/2)',
      },
    ]);
  });

  it("follows the steps array as it changes", () => {
    const steps: PlanStep[] = [{ id: "a", type: "llm", prompt: "x" }];
    const next = { type: "llm", prompt: "{{a}}" };
    expect(validateStep(next, { tools: exampleTools, steps }).issues).toEqual([]);
    steps.pop();
    steps.push({ id: "b", type: "llm", prompt: "y" });
    expect(validateStep(next, { tools: exampleTools, steps }).issues.map((issue) => issue.code)).toEqual([
      "unknown-reference",
    ]);
    steps.push({ id: "a", type: "reply", text: "z" });
    expect(validateStep(next, { tools: exampleTools, steps }).issues.map((issue) => issue.code)).toEqual([
      "invalid-step",
    ]);
  });
});

describe("createPlanValidator", () => {
  it("keeps the accepted steps, the rejected ids and the plan-level checks", () => {
    const validator = createPlanValidator(mcpTools, { maxSteps: 5 });
    expect(
      validator.push({ type: "tool", name: "calculator", arguments: {} }).issues.map((issue) => issue.code),
    ).toEqual(["missing-argument"]);
    expect(validator.push({ type: "llm", prompt: "Explain {{s1}}" }).issues[0]?.message).toBe(
      'Step "s2" references step "s1", which is invalid (/steps/1/prompt)',
    );
    expect(validator.push({ type: "tool", name: "calculator", arguments: { expr: "6*7" } }).issues).toEqual([]);
    expect(validator.push({ type: "reply", text: "{{s3.value}}" }).issues).toEqual([]);
    expect(validator.end()).toEqual([]);
    expect(validator.steps.map((step) => step.id)).toEqual(["s3", "s4"]);
    expect(validator.issues.map((issue) => issue.code)).toEqual(["missing-argument", "unknown-reference"]);
  });

  it("reports empty-plan and no-reply at the end", () => {
    expect(
      createPlanValidator(exampleTools)
        .end()
        .map((issue) => issue.code),
    ).toEqual(["empty-plan"]);
    const validator = createPlanValidator(exampleTools);
    validator.push({ type: "llm", prompt: "think" });
    expect(validator.end()).toEqual([
      {
        code: "no-reply",
        index: 0,
        stepId: "s1",
        path: "/steps/0",
        message: 'The plan does not end with a reply step; its last step "s1" is an llm step (/steps/0)',
      },
    ]);
  });
});
