import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeStep } from "../../src/plan.ts";

describe("normalizeStep: canonical and flat shapes", () => {
  it("keeps a canonical step as it is", () => {
    const step = {
      id: "s2",
      type: "tool",
      name: "calculator",
      arguments: { expr: "{{s1.value}} * 2" },
      dependsOn: ["s0"],
      retries: 1,
    };
    expect(normalizeStep(step, 1)).toEqual({ step, issues: [] });
  });

  it("gives a missing id the 1-based position: s<position + 1>", () => {
    expect(
      normalizeStep(
        { type: "tool", name: "arxiv_search", arguments: { query: "LLM agents survey", max_results: 2 } },
        0,
      ).step,
    ).toEqual({
      id: "s1",
      type: "tool",
      name: "arxiv_search",
      arguments: { query: "LLM agents survey", max_results: 2 },
    });
    expect(normalizeStep({ type: "reply", text: "已找到 2 篇相关综述" }, 2).step).toEqual({
      id: "s3",
      type: "reply",
      text: "已找到 2 篇相关综述",
    });
  });

  it("tolerates common variants of the flat shape", () => {
    const expected = { id: "s1", type: "tool", name: "calculator", arguments: { expr: "1+1" } };
    expect(normalizeStep({ type: "tool", tool: "calculator", args: { expr: "1+1" } }, 0).step).toEqual(expected);
    expect(normalizeStep({ type: "tool_call", tool_name: "calculator", parameters: { expr: "1+1" } }, 0).step).toEqual(
      expected,
    );
    expect(normalizeStep({ name: "calculator", input: { expr: "1+1" } }, 0).step).toEqual(expected);
    expect(normalizeStep({ type: "tool", name: "calculator", arguments: '{"expr":"1+1"}' }, 0).step).toEqual(expected);
    expect(
      normalizeStep({ type: "function", function: { name: "calculator", arguments: '{"expr":"1+1"}' } }, 0).step,
    ).toEqual(expected);
    expect(normalizeStep({ id: 7, type: "answer", text: "done", depends_on: 3 }, 0).step).toEqual({
      id: "7",
      type: "reply",
      text: "done",
      dependsOn: ["3"],
    });
    expect(normalizeStep({ prompt: "think" }, 4).step).toEqual({ id: "s5", type: "llm", prompt: "think" });
  });

  it("reads NESTFUL sequences: label as id, $-delimited references, var_result as the reply", () => {
    expect(normalizeStep({ name: "search_airport", arguments: { query: "London" }, label: "var2" }, 1).step).toEqual({
      id: "var2",
      type: "tool",
      name: "search_airport",
      arguments: { query: "London" },
    });
    expect(
      normalizeStep(
        {
          name: "search_flights",
          arguments: {
            origin: "$var1.skyId$",
            legs: ["$var_2.entity.id$"],
            product: "5 * $var1.Exchange Rate$",
            note: "costs $HOME$ or $5$",
          },
          label: "$var3",
        },
        2,
      ).step,
    ).toEqual({
      id: "var3",
      type: "tool",
      name: "search_flights",
      arguments: {
        origin: "{{var1.skyId}}",
        legs: ["{{var_2.entity.id}}"],
        product: "5 * {{var1.Exchange Rate}}",
        note: "costs $HOME$ or $5$",
      },
    });
    expect(normalizeStep({ name: "var_result", arguments: { flights: "$var3$", count: 2 } }, 3).step).toEqual({
      id: "s4",
      type: "reply",
      text: "flights: {{var3}}\ncount: 2",
    });
  });

  it("defaults missing tool arguments to an empty object (required ones are reported by validation)", () => {
    expect(normalizeStep({ type: "tool", name: "list_todos" }, 0).step).toEqual({
      id: "s1",
      type: "tool",
      name: "list_todos",
      arguments: {},
    });
  });
});

describe("normalizeStep: step-list shape (step_id, action, params, dependencies)", () => {
  it("maps use_tool, params, dependencies, max_retries and $step references", () => {
    const raw = {
      step_id: "step_5",
      task_id: "task_5",
      action: "use_tool",
      tool: "advanced_analytics",
      params: {
        data: "$step_1",
        rows: "$step:step_1.rows",
        note: "growth of $step:step_2.rate, in $USD",
        method: "trend",
      },
      dependencies: ["step_1", "step_2"],
      max_retries: 2,
      expected_duration: "30",
    };
    expect(normalizeStep(raw, 4)).toEqual({
      step: {
        id: "step_5",
        type: "tool",
        name: "advanced_analytics",
        arguments: {
          data: "{{step_1}}",
          rows: "{{step_1.rows}}",
          note: "growth of {{step_2.rate}}, in $USD",
          method: "trend",
        },
        dependsOn: ["step_1", "step_2"],
        retries: 2,
      },
      issues: [],
    });
  });

  it("turns $context:key into a {{context.key}} reference and leaves prices alone", () => {
    const { step } = normalizeStep(
      {
        step_id: "s1",
        action: "use_tool",
        tool: "t",
        params: { user: "$context:user.name", all: "$context.locale", price: "$100", cur: "$EUR" },
      },
      0,
    );
    expect(step).toEqual({
      id: "s1",
      type: "tool",
      name: "t",
      arguments: { user: "{{context.user.name}}", all: "{{context.locale}}", price: "$100", cur: "$EUR" },
    });
  });

  it("makes llm_reasoning an llm step whose prompt is the question", () => {
    expect(
      normalizeStep({ step_id: "step_3", action: "llm_reasoning", question: "Why did $step:step_2.metric drop?" }, 2)
        .step,
    ).toEqual({
      id: "step_3",
      type: "llm",
      prompt: "Why did {{step_2.metric}} drop?",
    });
  });

  it("makes query_kb a call of the knowledge-base tool with the topic", () => {
    expect(
      normalizeStep({ step_id: "k", action: "query_kb", topic: "refund policy", params: { limit: 3 } }, 0).step,
    ).toEqual({
      id: "k",
      type: "tool",
      name: "query_kb",
      arguments: { limit: 3, topic: "refund policy" },
    });
    expect(
      normalizeStep({ step_id: "k", action: "query_kb", topic: "x" }, 0, { knowledgeBaseTool: "knowledge_base_search" })
        .step,
    ).toMatchObject({ name: "knowledge_base_search" });
  });

  it("reports an unknown action with its value and where", () => {
    expect(normalizeStep({ step_id: "x", action: "dance" }, 3).issues).toEqual([
      {
        code: "invalid-step",
        index: 3,
        stepId: "x",
        path: "/steps/3/action",
        message:
          'Step "x" has unknown action "dance"; expected "use_tool", "llm_reasoning" or "query_kb" (/steps/3/action)',
      },
    ]);
  });
});

describe("normalizeStep: bad input", () => {
  it("reports a non-object step", () => {
    expect(normalizeStep("call the calculator", 1).issues).toEqual([
      {
        code: "invalid-step",
        index: 1,
        path: "/steps/1",
        message: 'Step 2 must be an object, got string "call the calculator" (/steps/1)',
      },
    ]);
  });

  it("reports each structural problem at its path, naming the value", () => {
    const { step, issues } = normalizeStep({ id: "s 1", type: "tool", arguments: [1, 2] }, 0);
    expect(step).toBeUndefined();
    expect(issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["invalid-step", "/steps/0/id"],
      ["invalid-step", "/steps/0/name"],
      ["invalid-step", "/steps/0/arguments"],
    ]);
    expect(issues[0]?.message).toBe(
      'Step "s 1" is invalid: a step id must not contain whitespace, dots, braces or brackets, got "s 1" (/steps/0/id)',
    );
    expect(issues[2]?.message).toContain("arguments must be an object, got [1,2]");
  });

  it("requires non-empty reply text and a known type", () => {
    expect(normalizeStep({ type: "reply", text: "" }, 0).issues[0]).toMatchObject({
      code: "invalid-step",
      path: "/steps/0/text",
      stepId: "s1",
    });
    expect(normalizeStep({ type: "search", query: "x" }, 0).issues[0]).toMatchObject({
      code: "invalid-step",
      path: "/steps/0/type",
    });
    expect(normalizeStep({}, 0).issues[0]?.message).toContain('type must be "tool", "llm" or "reply"');
  });

  it("never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.anything(), fc.nat(50), (raw, position) => {
        const result = normalizeStep(raw, position);
        expect(result.step === undefined ? result.issues.length > 0 : result.issues.length === 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
