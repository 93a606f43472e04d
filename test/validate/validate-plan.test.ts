import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError, ToolRegistry } from "../../src/index.ts";
import { type PlanIssueCode, parsePlan, validatePlan } from "../../src/plan.ts";
import { examplePlan, exampleTools, mcpTools } from "../fixtures/tools/example-tools.ts";

function codes(issues: readonly { code: PlanIssueCode }[]): PlanIssueCode[] {
  return issues.map((issue) => issue.code);
}

describe("validatePlan: flat plans", () => {
  it("accepts the example plan and gives the steps ids", () => {
    const { steps, issues } = validatePlan(examplePlan, exampleTools);
    expect(issues).toEqual([]);
    expect(steps.map((step) => step.id)).toEqual(["s1", "s2", "s3"]);
  });

  it("reports a dropped required argument and leaves that step out (invalid steps are filtered)", () => {
    const { steps, issues } = validatePlan(
      [{ type: "tool", name: "arxiv_search", arguments: { max_results: 2 } }, examplePlan[1], examplePlan[2]],
      exampleTools,
    );
    expect(issues).toEqual([
      {
        code: "missing-argument",
        index: 0,
        stepId: "s1",
        path: "/steps/0/arguments/query",
        message: 'Step "s1" (tool "arxiv_search"): missing required argument "query" (/steps/0/arguments/query)',
      },
    ]);
    expect(steps.map((step) => step.id)).toEqual(["s2", "s3"]);
  });

  it("reports a tool that is not in the catalog, suggesting the closest name", () => {
    const { issues } = validatePlan(
      [
        { type: "tool", name: "arxiv_serch", arguments: { query: "x" } },
        { type: "reply", text: "ok" },
      ],
      exampleTools,
    );
    expect(issues).toEqual([
      {
        code: "unknown-tool",
        index: 0,
        stepId: "s1",
        path: "/steps/0/name",
        message: 'Step "s1" uses unknown tool "arxiv_serch"; did you mean "arxiv_search"? (/steps/0/name)',
      },
    ]);
    expect(validatePlan([{ type: "tool", name: "weather", arguments: {} }], exampleTools).issues[0]?.message).toBe(
      'Step "s1" uses unknown tool "weather"; available: arxiv_search, calculator (/steps/0/name)',
    );
  });

  it("requires reply text, and truncates at maxSteps with one issue", () => {
    expect(codes(validatePlan([{ type: "reply", text: "" }], exampleTools).issues)).toEqual([
      "invalid-step",
      "no-reply",
    ]);
    const long = [...Array.from({ length: 5 }, () => examplePlan[1]), { type: "reply", text: "done" }];
    const { steps, issues } = validatePlan(long, exampleTools, { maxSteps: 4 });
    expect(steps).toHaveLength(4);
    expect(issues).toEqual([
      {
        code: "too-many-steps",
        index: 4,
        stepId: "s5",
        path: "/steps/4",
        message: 'Step "s5" exceeds the limit of 4 steps (/steps/4)',
      },
      {
        code: "no-reply",
        index: 3,
        stepId: "s4",
        path: "/steps/3",
        message: 'The plan does not end with a reply step; its last step "s4" is a tool step (/steps/3)',
      },
    ]);
  });

  it("never throws, and every issue has a stable code, a step index, a JSON Pointer and a message naming it (property)", () => {
    // The stable codes, as the design lists them.
    const stableCodes = [
      "invalid-step",
      "unknown-tool",
      "missing-argument",
      "invalid-argument",
      "unknown-reference",
      "forward-reference",
      "duplicate-id",
      "too-many-steps",
      "empty-plan",
      "no-reply",
    ];
    const text = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        "{{s1}}",
        "{{s2.value}}",
        "{{s9.x}}",
        "{{s1.results[0].title}}",
        "see {{s3}} and {{context.user}}",
        "$step:s1.key",
      ),
    );
    const argument = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }));
    const step = fc.record(
      {
        id: fc.constantFrom("s1", "s2", "s3", "x y", "", 7),
        type: fc.constantFrom("tool", "llm", "reply", "other"),
        name: fc.constantFrom("arxiv_search", "calculator", "nope"),
        arguments: fc.oneof(
          fc.dictionary(fc.constantFrom("query", "max_results", "expr", "extra", "a/b~c"), argument, { maxKeys: 3 }),
          argument,
        ),
        prompt: text,
        text,
        dependsOn: fc.array(fc.constantFrom("s1", "s2", "s9"), { maxLength: 2 }),
      },
      { requiredKeys: ["type"] },
    );
    const plan = fc.oneof(fc.array(fc.oneof(step, fc.anything()), { maxLength: 5 }), fc.anything());
    const pointer = /^(?:\/(?:[^~/]|~[01])*)*$/u;
    fc.assert(
      fc.property(plan, fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), (raw, maxSteps) => {
        const { steps, issues } = validatePlan(raw, exampleTools, maxSteps === undefined ? {} : { maxSteps });
        expect(Array.isArray(steps)).toBe(true);
        for (const issue of issues) {
          expect(Object.keys(issue).every((key) => ["code", "index", "stepId", "path", "message"].includes(key))).toBe(
            true,
          );
          expect(stableCodes).toContain(issue.code);
          expect(Number.isInteger(issue.index) && issue.index >= -1).toBe(true);
          if (Array.isArray(raw)) expect(issue.index).toBeLessThan(Math.max(raw.length, 1));
          expect(issue.path).toMatch(pointer);
          if (issue.index >= 0) expect(issue.path.startsWith("/steps")).toBe(true);
          if (issue.path !== "") expect(issue.message.endsWith(` (${issue.path})`)).toBe(true);
          if (issue.stepId !== undefined) expect(typeof issue.stepId).toBe("string");
          expect(typeof issue.message).toBe("string");
          expect(issue.message.trim()).not.toBe("");
        }
        // The accepted steps are canonical: unique string ids, a known type, and plain JSON.
        const ids = steps.map((accepted) => accepted.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const accepted of steps) {
          expect(["tool", "llm", "reply"]).toContain(accepted.type);
          expect(JSON.parse(JSON.stringify(accepted))).toEqual(accepted);
        }
        if (maxSteps !== undefined) expect(steps.length).toBeLessThanOrEqual(maxSteps);
        // The same input gives the same verdict.
        expect(validatePlan(raw, exampleTools, maxSteps === undefined ? {} : { maxSteps })).toEqual({ steps, issues });
      }),
      { numRuns: 400 },
    );
  });
});

describe("validatePlan: every diagnostic code", () => {
  it("invalid-step: malformed steps, a step after the reply", () => {
    const { issues } = validatePlan(
      [
        { type: "reply", text: "early" },
        { type: "tool", name: "calculator", arguments: { expr: "1" } },
      ],
      exampleTools,
    );
    expect(issues).toEqual([
      {
        code: "invalid-step",
        index: 1,
        stepId: "s2",
        path: "/steps/1",
        message: 'Step "s2" comes after the reply step "s1"; the reply must be the last step (/steps/1)',
      },
    ]);
  });

  it("invalid-step: a step nested deeper than a plan may be, reported rather than thrown, the plan's other steps kept", () => {
    let value: unknown = "x";
    for (let level = 0; level < 20_000; level++) value = { v: value };
    const plan = [
      { type: "tool", name: "calculator", arguments: { expr: "1" } },
      { id: "deep", type: "tool", name: "calculator", arguments: { expr: value } },
      { type: "reply", text: "{{s1}}" },
    ];
    const { steps, issues } = validatePlan(plan, exampleTools);
    expect(steps.map((step) => step.id)).toEqual(["s1", "s3"]);
    expect(issues).toEqual([
      {
        code: "invalid-step",
        index: 1,
        stepId: "deep",
        path: "/steps/1",
        message: 'Step "deep" nests deeper than 512 levels, at /arguments/expr/v/v/… (/steps/1)',
      },
    ]);
    const sketch = { vertices: [{ id: "a", tool_binding: "calculator", args: { expr: value } }], edges: [] };
    expect(validatePlan(sketch, exampleTools).issues).toEqual([
      {
        code: "invalid-step",
        index: -1,
        path: "",
        message: "The plan nests deeper than 514 levels, at /vertices/0/args/expr/…",
      },
    ]);
  });

  it("invalid-argument names the path, the expected type and the value", () => {
    const { issues } = validatePlan(
      [
        { type: "tool", name: "arxiv_search", arguments: { query: "x", max_results: "two" } },
        { type: "reply", text: "ok" },
      ],
      exampleTools,
    );
    expect(issues).toEqual([
      {
        code: "invalid-argument",
        index: 0,
        stepId: "s1",
        path: "/steps/0/arguments/max_results",
        message:
          'Step "s1" (tool "arxiv_search"): argument "max_results" is "two", expected integer (/steps/0/arguments/max_results)',
      },
    ]);
  });

  it("unknown-reference and forward-reference", () => {
    const { issues } = validatePlan(
      [
        { type: "tool", name: "calculator", arguments: { expr: "1+1" } },
        { type: "llm", prompt: "Explain {{s3}}" },
        { type: "tool", name: "arxiv_search", arguments: { query: "{{s9}}" } },
        { type: "reply", text: "{{s4.x}}", dependsOn: ["s1", "s7"] },
      ],
      exampleTools,
    );
    expect(issues.map(({ code, path, message }) => ({ code, path, message }))).toEqual([
      {
        code: "forward-reference",
        path: "/steps/1/prompt",
        message:
          'Step "s2" references step "s3", which comes later; a step may only use steps before it (/steps/1/prompt)',
      },
      {
        code: "unknown-reference",
        path: "/steps/2/arguments/query",
        message: 'Step "s3" references unknown step "s9" (/steps/2/arguments/query)',
      },
      { code: "forward-reference", path: "/steps/3/text", message: 'Step "s4" references itself (/steps/3/text)' },
      {
        code: "unknown-reference",
        path: "/steps/3/dependsOn/1",
        message: 'Step "s4" depends on unknown step "s7" (/steps/3/dependsOn/1)',
      },
    ]);
  });

  it("unknown-reference when the referenced step was rejected, so dependents are left out too", () => {
    const { steps, issues } = validatePlan(
      [
        { type: "tool", name: "calculator", arguments: {} },
        { type: "llm", prompt: "Explain {{s1.value}}" },
        { type: "reply", text: "fine" },
      ],
      mcpTools,
    );
    expect(codes(issues)).toEqual(["missing-argument", "unknown-reference"]);
    expect(issues[1]?.message).toBe('Step "s2" references step "s1", which is invalid (/steps/1/prompt)');
    expect(steps.map((step) => step.id)).toEqual(["s3"]);
  });

  it("duplicate-id (and no no-reply for a reply that was rejected for another reason)", () => {
    const { issues } = validatePlan(
      [
        { id: "a", type: "llm", prompt: "x" },
        { id: "a", type: "reply", text: "y" },
      ],
      exampleTools,
    );
    expect(issues).toEqual([
      {
        code: "duplicate-id",
        index: 1,
        stepId: "a",
        path: "/steps/1/id",
        message: 'Step "a" reuses the id of an earlier step (/steps/1/id)',
      },
    ]);
  });

  it("empty-plan and no-reply", () => {
    expect(validatePlan([], exampleTools).issues).toEqual([
      { code: "empty-plan", index: 0, path: "/steps", message: "The plan has no steps (/steps)" },
    ]);
    expect(validatePlan({ steps: [] }, exampleTools).issues[0]?.code).toBe("empty-plan");
    expect(validatePlan([{ type: "llm", prompt: "think" }], exampleTools).issues).toEqual([
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

describe("validatePlan: input shapes", () => {
  it("accepts the catalog as an MCP array, a tools/list result, the record shape or a registry", () => {
    const registry = new ToolRegistry().register(mcpTools.map((tool) => ({ ...tool, execute: () => ({}) })));
    const broken = [
      { type: "tool", name: "arxiv_search", arguments: { max_results: 1.5 } },
      { type: "reply", text: "x" },
    ];
    const expected = validatePlan(broken, exampleTools);
    expect(codes(expected.issues)).toEqual(["missing-argument", "invalid-argument"]);
    for (const tools of [mcpTools, { tools: mcpTools }, registry])
      expect(validatePlan(broken, tools)).toEqual(expected);
  });

  it("validates a step-list plan, with query_kb and run-context references", () => {
    const { steps, issues } = validatePlan(
      [
        { step_id: "step_1", action: "query_kb", topic: "$context:product" },
        {
          step_id: "step_2",
          action: "use_tool",
          tool: "calculator",
          params: { expr: "$step:step_1.count * 2" },
          dependencies: ["step_1"],
        },
        { step_id: "step_3", action: "llm_reasoning", question: "What does $step:step_2.value mean?" },
        { step_id: "step_4", action: "reply", text: "$step:step_3" },
      ],
      mcpTools,
    );
    expect(issues).toEqual([]);
    expect(steps.map((step) => step.type)).toEqual(["tool", "tool", "llm", "reply"]);
    expect(steps[0]).toEqual({
      id: "step_1",
      type: "tool",
      name: "query_kb",
      arguments: { topic: "{{context.product}}" },
    });
  });

  it("validates a DAG sketch, naming positional arguments after the tool's parameters", () => {
    const { steps, issues } = validatePlan(
      {
        vertices: [
          { id: "task_2", tool_binding: "calculator", args: ["{{task_1.ret}} + 1"] },
          { id: "task_1", tool_binding: "arxiv_search", args: ["agents", 3], ret: "papers" },
        ],
        edges: [["task_1", "task_2"]],
      },
      mcpTools,
    );
    expect(issues).toEqual([]);
    expect(steps).toEqual([
      { id: "task_1", type: "tool", name: "arxiv_search", arguments: { query: "agents", max_results: 3 } },
      { id: "task_2", type: "tool", name: "calculator", arguments: { expr: "{{task_1}} + 1" } },
      { id: "reply", type: "reply", text: "{{task_2}}" },
    ]);
  });

  it("reports sketch structure problems with index -1", () => {
    const { issues } = validatePlan(
      { vertices: [{ id: "a", tool_binding: "calculator", args: { expr: "{{a.ret}}" } }], edges: [["a", "a"]] },
      mcpTools,
    );
    expect(issues).toMatchObject([{ code: "invalid-step", index: -1, path: "/vertices/0" }]);
  });
});

describe("validatePlan: references into output schemas", () => {
  const plan = (text: string): unknown[] => [
    { type: "tool", name: "arxiv_search", arguments: { query: "agents" } },
    { type: "tool", name: "calculator", arguments: { expr: "1+1" } },
    { type: "tool", name: "fetch_json", arguments: { url: "https://example.com" } },
    { type: "reply", text },
  ];

  it("accepts paths the output schema declares, through arrays and $ref", () => {
    expect(
      validatePlan(
        plan("{{s1.papers.0.title}} {{s1.papers[1].authors.0}} {{s1.total}} {{s2.value}} {{s3.anything.at.all}}"),
        mcpTools,
      ).issues,
    ).toEqual([]);
  });

  it("reports a path the output schema does not declare, with the available fields", () => {
    const { issues } = validatePlan(plan("{{s2.valu}} and {{s1.papers.0.abstract}} and {{s1.papers.first}}"), mcpTools);
    expect(issues.map((issue) => issue.message)).toEqual([
      'Step "s4" references {{s2.valu}}, but the output of tool "calculator" declares no "valu" (available: value) (/steps/3/text)',
      'Step "s4" references {{s1.papers.0.abstract}}, but the output of tool "arxiv_search" declares no "papers.0.abstract" (available: title, authors) (/steps/3/text)',
      'Step "s4" references {{s1.papers.first}}, but the output of tool "arxiv_search" declares no "papers.first" (/steps/3/text)',
    ]);
    expect(codes(issues)).toEqual(["unknown-reference", "unknown-reference", "unknown-reference"]);
  });

  it("does not check paths into tools without an output schema", () => {
    expect(validatePlan([examplePlan[1], { type: "reply", text: "{{s1.whatever}}" }], exampleTools).issues).toEqual([]);
  });
});

describe("parsePlan", () => {
  it("returns the steps of a valid plan", () => {
    expect(parsePlan(examplePlan, exampleTools).map((step) => step.type)).toEqual(["tool", "tool", "reply"]);
  });

  it("throws with the first issue's code and every message", () => {
    let error: unknown;
    try {
      parsePlan([{ type: "tool", name: "calculator", arguments: {} }], exampleTools);
    } catch (caught) {
      error = caught;
    }
    expect(PlankitError.isInstance(error)).toBe(true);
    expect((error as PlankitError).code).toBe("missing-argument");
    expect((error as PlankitError).message).toBe(
      '2 problems in the plan:\n- Step "s1" (tool "calculator"): missing required argument "expr" (/steps/0/arguments/expr)\n- The plan does not end with a reply step; its last step "s1" is a tool step (/steps/0)',
    );
    expect(((error as PlankitError).cause as { issues: unknown[] }).issues).toHaveLength(2);
  });
});
