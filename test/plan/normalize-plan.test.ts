import { describe, expect, it } from "vitest";
import { normalizePlan } from "../../src/plan.ts";

describe("normalizePlan: containers", () => {
  const flat = [
    { type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
    { type: "reply", text: "{{s1.value}}" },
  ];
  const canonical = [
    { id: "s1", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
    { id: "s2", type: "reply", text: "{{s1.value}}" },
  ];

  it("accepts an array, { steps }, { plan } and a single step", () => {
    expect(normalizePlan(flat)).toEqual({ steps: canonical, issues: [] });
    expect(normalizePlan({ steps: flat })).toEqual({ steps: canonical, issues: [] });
    expect(normalizePlan({ plan: flat })).toEqual({ steps: canonical, issues: [] });
    expect(normalizePlan({ type: "reply", text: "hi" })).toEqual({
      steps: [{ id: "s1", type: "reply", text: "hi" }],
      issues: [],
    });
  });

  it("leaves unreadable steps out, keeps the others at their positions", () => {
    const { steps, issues } = normalizePlan([{ type: "tool", name: "a" }, 42, { type: "reply", text: "x" }]);
    expect(steps.map((step) => step.id)).toEqual(["s1", "s3"]);
    expect(issues).toMatchObject([{ code: "invalid-step", index: 1, path: "/steps/1" }]);
  });

  it("reports something that is not a plan at all", () => {
    expect(normalizePlan("I cannot help with that")).toEqual({
      steps: [],
      issues: [
        {
          code: "invalid-step",
          index: -1,
          path: "",
          message:
            'A plan must be an array of steps, an object with "steps", a sketch with "vertices" or a task graph with "task_nodes"; got string "I cannot help with that"',
        },
      ],
    });
  });
});

describe("normalizePlan: DAG sketch (vertices, edges)", () => {
  const sketch = {
    vertices: [
      {
        id: "task_3",
        description: "Compare the ages",
        tool_binding: "calculator",
        args: ["{{task_1.ret}} - {{caesar_year}}"],
        ret: "difference",
      },
      {
        id: "task_1",
        description: "Find Emperor Wu's birth year",
        tool_binding: "web_search",
        args: { query: "Emperor Wu of Han birth year" },
        ret: "wu_year",
      },
      {
        id: "task_2",
        description: "Find Julius Caesar's birth year",
        tool_binding: "web_search",
        args: [{ name: "query", value: "Julius Caesar birth year" }],
        ret: "caesar_year",
      },
    ],
    edges: [["task_1", "task_3"], { source: "task_2", target: "task_3" }],
  };

  it("orders vertices topologically, stably, and rewrites {{task.ret}} references", () => {
    const { steps, issues } = normalizePlan(sketch, {
      parameterNames: (tool) => (tool === "calculator" ? ["expr"] : undefined),
    });
    expect(issues).toEqual([]);
    expect(steps).toEqual([
      {
        id: "task_1",
        type: "tool",
        name: "web_search",
        arguments: { query: "Emperor Wu of Han birth year" },
        description: "Find Emperor Wu's birth year",
      },
      {
        id: "task_2",
        type: "tool",
        name: "web_search",
        arguments: { query: "Julius Caesar birth year" },
        description: "Find Julius Caesar's birth year",
      },
      {
        id: "task_3",
        type: "tool",
        name: "calculator",
        arguments: { expr: "{{task_1}} - {{task_2}}" },
        description: "Compare the ages",
      },
      { id: "reply", type: "reply", text: "{{task_3}}" },
    ]);
  });

  it("names positional arguments arg0, arg1… without parameter names, and can skip the reply", () => {
    const { steps } = normalizePlan(
      {
        vertices: [
          { id: "a", tool_binding: "t", args: ["x", 2] },
          { id: "b", description: "Explain {{a.ret}}" },
        ],
        edges: [],
      },
      { sketchReply: false },
    );
    expect(steps).toEqual([
      { id: "a", type: "tool", name: "t", arguments: { arg0: "x", arg1: 2 } },
      { id: "b", type: "llm", prompt: "Explain {{a}}" },
    ]);
  });

  it("keeps an edge without a data reference as dependsOn, and quotes every sink in the reply", () => {
    const { steps } = normalizePlan({
      vertices: [
        { id: "a", tool_binding: "t", args: {} },
        { id: "b", tool_binding: "t", args: {} },
        { id: "c", tool_binding: "t", args: {} },
      ],
      edges: [["a", "b"]],
    });
    expect(steps[1]).toEqual({ id: "b", type: "tool", name: "t", arguments: {}, dependsOn: ["a"] });
    expect(steps.at(-1)).toEqual({ id: "reply", type: "reply", text: "{{b}}\n\n{{c}}" });
  });

  it("reports a cycle instead of hanging, and keeps the rest", () => {
    const { steps, issues } = normalizePlan({
      vertices: [
        { id: "a", tool_binding: "t", args: { x: "{{c.ret}}" } },
        { id: "b", tool_binding: "t", args: { x: "{{a.ret}}" } },
        { id: "c", tool_binding: "t", args: { x: "{{b.ret}}" } },
        { id: "d", tool_binding: "t", args: { x: "{{c.ret}}" } },
        { id: "e", tool_binding: "t", args: {} },
        { id: "f", tool_binding: "t", args: {} },
      ],
      edges: [["f", "f"]],
    });
    expect(steps.map((step) => step.id)).toEqual(["e", "reply"]);
    expect(issues).toEqual([
      {
        code: "invalid-step",
        index: -1,
        stepId: "a",
        path: "/vertices/0",
        message: 'Vertex "a" is part of a dependency cycle: a → b → c → a (/vertices/0)',
      },
      {
        code: "invalid-step",
        index: -1,
        stepId: "b",
        path: "/vertices/1",
        message: 'Vertex "b" is part of a dependency cycle: b → c → a → b (/vertices/1)',
      },
      {
        code: "invalid-step",
        index: -1,
        stepId: "c",
        path: "/vertices/2",
        message: 'Vertex "c" is part of a dependency cycle: c → a → b → c (/vertices/2)',
      },
      {
        code: "invalid-step",
        index: -1,
        stepId: "d",
        path: "/vertices/3",
        message: 'Vertex "d" depends on a vertex that is part of a dependency cycle (/vertices/3)',
      },
      {
        code: "invalid-step",
        index: -1,
        stepId: "f",
        path: "/vertices/5",
        message: 'Vertex "f" is part of a dependency cycle: f → f (/vertices/5)',
      },
    ]);
  });

  it("reports edges to unknown vertices, malformed edges and repeated vertex ids", () => {
    const { steps, issues } = normalizePlan({
      vertices: [
        { id: "a", tool_binding: "t" },
        { id: "a", tool_binding: "u" },
      ],
      edges: [["a", "zz"], "a->b"],
    });
    expect(steps.map((step) => step.id)).toEqual(["a", "reply"]);
    expect(issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["duplicate-id", "/vertices/1"],
      ["unknown-reference", "/edges/0"],
      ["invalid-step", "/edges/1"],
    ]);
    expect(issues[1]?.message).toBe('Edge ["a","zz"] names unknown vertex "zz" (/edges/0)');
  });

  it("orders a long reversed chain", () => {
    const size = 400;
    const vertices = Array.from({ length: size }, (_, index) => ({
      id: `v${size - index}`,
      tool_binding: "t",
      args: index === size - 1 ? {} : { x: `{{v${size - index - 1}.ret}}` },
    }));
    const { steps, issues } = normalizePlan({ vertices, edges: [] });
    expect(issues).toEqual([]);
    expect(steps.slice(0, 3).map((step) => step.id)).toEqual(["v1", "v2", "v3"]);
    expect(steps).toHaveLength(size + 1);
  });
});

describe("normalizePlan: TaskBench task graphs", () => {
  it("reads named arguments and links by task name, and quotes the sinks in a reply", () => {
    const { steps, issues } = normalizePlan({
      task_steps: ["Step 1: get the weather", "Step 2: get the news"],
      task_nodes: [
        { task: "get_news", arguments: [{ name: "topic", value: "weather in Paris" }] },
        {
          task: "get_weather",
          arguments: [
            { name: "location", value: "Paris" },
            { name: "date", value: "2024-05-01" },
          ],
        },
      ],
      task_links: [{ source: "get_weather", target: "get_news" }],
    });
    expect(issues).toEqual([]);
    expect(steps).toEqual([
      { id: "node-1", type: "tool", name: "get_weather", arguments: { location: "Paris", date: "2024-05-01" } },
      { id: "node-0", type: "tool", name: "get_news", arguments: { topic: "weather in Paris" }, dependsOn: ["node-1"] },
      { id: "reply", type: "reply", text: "{{node-0}}" },
    ]);
  });

  it("reads positional arguments with <node-j> tags as references, named after the tool's parameters when known", () => {
    const plan = {
      task_nodes: [
        { task: "Image-to-Text", arguments: ["photo.jpg"] },
        { task: "Text-to-Speech", arguments: ["<node-0>"] },
        { task: "Summarize", arguments: ["Say: <node-0>"] },
      ],
      task_links: [
        { source: "Image-to-Text", target: "Text-to-Speech" },
        { source: "Image-to-Text", target: "Summarize" },
      ],
    };
    const names: Record<string, string[]> = { "Image-to-Text": ["image"], "Text-to-Speech": ["text"] };
    const { steps, issues } = normalizePlan(plan, { parameterNames: (tool) => names[tool] });
    expect(issues).toEqual([]);
    expect(
      steps.map((step) =>
        step.type === "tool"
          ? [step.id, step.name, step.arguments]
          : [step.id, step.type === "reply" ? step.text : step.prompt],
      ),
    ).toEqual([
      ["node-0", "Image-to-Text", { image: "photo.jpg" }],
      ["node-1", "Text-to-Speech", { text: "{{node-0}}" }],
      ["node-2", "Summarize", { arg0: "Say: {{node-0}}" }],
      ["reply", "{{node-1}}\n\n{{node-2}}"],
    ]);
  });

  it("names the node or link it cannot read, at its place in the task graph", () => {
    const { issues } = normalizePlan({
      task_nodes: [{ task: "a", arguments: [] }, "oops"],
      task_links: [{ source: "a", target: "nowhere" }],
    });
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ["/task_nodes/1", 'Node 2 must be an object, got "oops" (/task_nodes/1)'],
      ["/task_links/0", 'Link ["node-0","nowhere"] names unknown node "nowhere" (/task_links/0)'],
    ]);
  });
});
