import * as v from "valibot";
import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/index.ts";
import { LlmStepSchema, PlanStepSchema, ReplyStepSchema, StepIdSchema, ToolStepSchema } from "../../src/plan.ts";

describe("step schemas", () => {
  it("accept the canonical wire format of DESIGN.md", () => {
    const steps: unknown[] = [
      { id: "s1", type: "tool", name: "arxiv_search", arguments: { query: "LLM agents survey", max_results: 2 } },
      { id: "s2", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
      { id: "s3", type: "llm", prompt: "Summarize {{s1}} in Chinese" },
      { id: "s4", type: "reply", text: "21*2+5 = {{s2.value}}. {{s3}}" },
    ];
    const parsed: PlanStep[] = steps.map((step) => v.parse(PlanStepSchema, step));
    expect(parsed).toEqual(steps);
  });

  it("carry the optional ordering and policy fields", () => {
    const step = v.parse(ToolStepSchema, {
      id: "fetch",
      type: "tool",
      name: "fetch_url",
      arguments: {},
      dependsOn: ["s1"],
      description: "download the page",
      retries: 2,
      timeoutMs: 1500,
    });
    expect(step).toEqual({
      id: "fetch",
      type: "tool",
      name: "fetch_url",
      arguments: {},
      dependsOn: ["s1"],
      description: "download the page",
      retries: 2,
      timeoutMs: 1500,
    });
  });

  it("drop unknown fields and put id and type first", () => {
    const step = v.parse(ReplyStepSchema, { text: "hi", extra: true, type: "reply", id: "r" });
    expect(Object.keys(step)).toEqual(["id", "type", "text"]);
  });

  it("reject ids that would break references, and the reserved context id", () => {
    for (const id of ["", "s 1", "s.1", "a{b}", "x[0]", "context"]) expect(v.is(StepIdSchema, id)).toBe(false);
    for (const id of ["s1", "step_1", "task-2", "步骤1"]) expect(v.is(StepIdSchema, id)).toBe(true);
  });

  it("reject malformed fields with a readable message", () => {
    const result = v.safeParse(ToolStepSchema, { id: "s1", type: "tool", name: "", arguments: [1] });
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => issue.message)).toEqual([
      "the tool name must not be empty",
      "arguments must be an object",
    ]);
    expect(v.is(LlmStepSchema, { id: "s1", type: "llm", prompt: "" })).toBe(false);
    expect(v.is(ToolStepSchema, { id: "s1", type: "tool", name: "x", arguments: {}, retries: -1 })).toBe(false);
    expect(v.is(ToolStepSchema, { id: "s1", type: "tool", name: "x", arguments: {}, retries: 1.5 })).toBe(false);
    expect(v.is(ToolStepSchema, { id: "s1", type: "tool", name: "x", arguments: {}, timeoutMs: 0 })).toBe(false);
    expect(v.is(PlanStepSchema, { id: "s1", type: "search", query: "x" })).toBe(false);
  });
});
