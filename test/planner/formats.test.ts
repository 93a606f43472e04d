import { describe, expect, it } from "vitest";
import { LLMPlanner, type PlanStep } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import type { ToolCatalogInput } from "../../src/tools.ts";
import { weatherCatalog } from "../fixtures/tools/weather-catalog.ts";
import { collectEvents, doneOf } from "./planner-test-kit.ts";

const tools = weatherCatalog;

const planned: PlanStep[] = [
  { id: "s1", type: "tool", name: "get_weather", arguments: { city: "Paris", days: 3 } },
  { id: "s2", type: "tool", name: "math.factorial", arguments: { number: 5 } },
];

/** Plans with one scripted answer streamed in 3-character chunks, without a repair. */
async function planWith(answer: string, catalog: ToolCatalogInput = tools) {
  const planner = new LLMPlanner({
    model: createScriptedModel({ responses: [answer], charsPerToken: 3 }),
    repair: false,
  });
  return await collectEvents(planner.stream({ query: "Weather in Paris, and 5!", tools: catalog }));
}

describe("LLMPlanner: the formats models write", () => {
  const answers: [string, string][] = [
    ["pythonic calls", '[get_weather(city="Paris", days=3), math_factorial(number=5)]'],
    [
      "<tool_call> blocks",
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>\n<tool_call>\n{"name": "math_factorial", "arguments": "{\\"number\\": 5}"}\n</tool_call>',
    ],
    [
      "OpenAI tool_calls",
      '{"tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\", \\"days\\": 3}"}}, {"type": "function", "function": {"name": "math_factorial", "arguments": "{\\"number\\": 5}"}}]}',
    ],
    [
      "objects one per line",
      '{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}\n{"name": "Math-Factorial", "parameters": {"number": 5}}',
    ],
  ];
  for (const [format, answer] of answers) {
    it(`plans from ${format}, ids s1, s2 and dotted tool names resolved`, async () => {
      const events = await collectEvents(
        new LLMPlanner({ model: createScriptedModel({ responses: [answer], charsPerToken: 3 }), repair: false }).stream(
          { query: "q", tools },
        ),
      );
      const steps = events.filter((event) => event.type === "step").map((event) => event.step);
      // The model wrote no reply: the planner adds one quoting both results.
      expect(steps).toEqual([...planned, { id: "reply", type: "reply", text: "{{s1}}\n\n{{s2}}" }]);
    });
  }

  it("streams each call as a step before the answer ends", async () => {
    const log: string[] = [];
    const chunks = [
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
      '<tool_call>{"name": "math_factorial", "arguments": {"number": 5}}</tool_call>',
    ];
    const planner = new LLMPlanner({
      model: {
        async *stream() {
          for (const chunk of chunks) {
            log.push("chunk");
            yield { type: "text", text: chunk };
          }
          yield { type: "finish", reason: "stop" };
        },
      },
      repair: false,
    });
    for await (const event of planner.stream({ query: "q", tools }))
      if (event.type === "step") log.push(`step ${event.step.id}`);
    expect(log.slice(0, 4)).toEqual(["chunk", "step s1", "chunk", "step s2"]);
  });

  it("keeps a reply that only mentions a function a reply, running nothing", async () => {
    const text = 'You could call get_weather(city="Paris") to find out; I have no tool for that here.';
    const done = doneOf(await planWith(text));
    expect(done.steps).toEqual([{ id: "s1", type: "reply", text }]);
    expect(done.fallback).toBe(true);
  });

  it("reports an ambiguous tool name as unknown-tool, listing the tools it matches", async () => {
    const catalog = { ...tools, "math-factorial": tools["math.factorial"] };
    const events = await planWith("math_factorial(number=5)", catalog);
    const issue = events.find((event) => event.type === "issue");
    expect(issue?.type === "issue" && issue.issue.code).toBe("unknown-tool");
    expect(issue?.type === "issue" && issue.issue.message).toContain(
      'matches several tools: "math.factorial", "math-factorial"',
    );
    expect(doneOf(events).steps.some((step) => step.type === "tool")).toBe(false);
  });

  it("never resolves a name to a tool outside the catalog", async () => {
    const events = await planWith("math_factorial(number=5)", { get_weather: tools.get_weather });
    const issue = events.find((event) => event.type === "issue");
    expect(issue?.type === "issue" && issue.issue.code).toBe("unknown-tool");
    expect(doneOf(events).steps.some((step) => step.type === "tool")).toBe(false);
  });

  it("drops a call cut off by the end of the answer, with an issue saying so", async () => {
    const events = await planWith('[get_weather(city="Paris", days=3), math_factorial(number=');
    const issues = events.flatMap((event) => (event.type === "issue" ? [event.issue] : []));
    expect(issues[0]?.message).toBe(
      'Step 2 was cut off before the call "math_factorial(…" closed and was dropped (/steps/1)',
    );
    expect(doneOf(events).steps[0]).toEqual(planned[0]);
  });

  it("names positional arguments after the tool's parameters, in schema order, also under the name models write", async () => {
    const events = await planWith('[get_weather("Paris", 3), math_factorial(5)]');
    expect(doneOf(events).steps.slice(0, 2)).toEqual(planned);
  });

  it("drops a positional call it cannot name, saying which call and which argument", async () => {
    const events = await planWith('[get_weather("Paris", 3, "metric"), math_factorial(number=5)]');
    const issues = events.flatMap((event) => (event.type === "issue" ? [event.issue.message] : []));
    expect(issues.some((message) => message.includes("get_weather(") && /argument 3/u.test(message))).toBe(true);
    expect(doneOf(events).steps.some((step) => step.type === "tool" && step.name === "get_weather")).toBe(false);
    expect(doneOf(events).steps.some((step) => step.type === "tool" && step.name === "math.factorial")).toBe(true);
  });
});
