import { describe, expect, it } from "vitest";
import { LLMPlanner, type LLMPlannerOptions, PlankitError, type PlanStep, ToolRegistry } from "../../src/index.ts";
import type { PlanModel, PlanModelRequest } from "../../src/model.ts";
import { createScriptedModel } from "../../src/test.ts";
import { examplePlan, exampleTools, mcpTools } from "../fixtures/tools/example-tools.ts";
import { caught, collectEvents, createLoggingModel, doneOf, traceOf } from "./planner-test-kit.ts";

const query = "在 arXiv 找 2 篇 LLM agents 调研;再计算 21*2+5,最后给出中文总结。";
const exampleAnswer = JSON.stringify(examplePlan);
const canonicalExamplePlan: PlanStep[] = [
  { id: "s1", type: "tool", name: "arxiv_search", arguments: { query: "LLM agents survey", max_results: 2 } },
  { id: "s2", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
  { id: "s3", type: "reply", text: "已找到 2 篇相关综述,计算结果为 47,并给出总结。" },
];

describe("LLMPlanner: parsing, validation and fallback", () => {
  it("reads the plan out of code fences and explanations", async () => {
    const model = createScriptedModel({
      responses: [
        `Sure, here is the plan:\n\`\`\`json\n${JSON.stringify(examplePlan, null, 2)}\n\`\`\`\nLet me know if you need more.`,
      ],
    });
    const planner = new LLMPlanner({ model });
    expect(
      await planner.plan({
        profile: "You are ResearchAgent, acting as planner. Reply in zh.",
        query,
        tools: exampleTools,
      }),
    ).toEqual(canonicalExamplePlan);
    expect(model.calls).toBe(1);
  });

  it("drops a step missing a required argument", async () => {
    const answer = JSON.stringify([
      { type: "tool", name: "arxiv_search", arguments: { max_results: 2 } },
      { type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
      { type: "reply", text: "{{s2.value}}" },
    ]);
    const planner = new LLMPlanner({ model: createScriptedModel({ responses: [answer] }), repair: false });
    const events = await collectEvents(planner.stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["issue dropped missing-argument", "step s2", "step s3", "done"]);
    const issue = events.find((event) => event.type === "issue");
    expect(issue?.type === "issue" && issue.issue.path).toBe("/steps/0/arguments/query");
    const done = doneOf(events);
    expect(done.steps.map((step) => step.id)).toEqual(["s2", "s3"]);
    expect(done.clean).toBe(false);
  });

  it("falls back to a single reply carrying the model's text when nothing can be parsed", async () => {
    const prose = "I am sorry, I cannot plan this request. ".repeat(80);
    const model = createScriptedModel({ responses: [prose, prose] });
    const planner = new LLMPlanner({ model });
    const events = await collectEvents(planner.stream({ query, tools: exampleTools }));
    const done = doneOf(events);
    expect(done.steps).toEqual([{ id: "s1", type: "reply", text: prose.trim().slice(0, 2000) }]);
    expect(done.fallback).toBe(true);
    expect(done.clean).toBe(false);
    expect(traceOf(events)).toEqual(["repair 1", "step s1", "done"]);
    expect(model.calls).toBe(2);
  });

  it("falls back to the fallback text when the answer parsed but no step survived", async () => {
    const answer = JSON.stringify([{ type: "tool", name: "web_search", arguments: {} }]);
    const planner = new LLMPlanner({
      model: createScriptedModel({ responses: [answer] }),
      repair: false,
      fallbackText: "No plan.",
    });
    expect(await planner.plan({ query, tools: exampleTools })).toEqual([{ id: "s1", type: "reply", text: "No plan." }]);
  });

  it("cuts a long plan at maxSteps, keeping the last place for the reply", async () => {
    const steps = [
      ...Array.from({ length: 7 }, (_, index) => ({
        type: "tool",
        name: "calculator",
        arguments: { expr: `${index}+1` },
      })),
      { type: "reply", text: "done" },
    ];
    const model = createScriptedModel({ responses: [JSON.stringify(steps)] });
    const planner = new LLMPlanner({ model, maxSteps: 4 });
    const events = await collectEvents(planner.stream({ query: "add numbers", tools: exampleTools }));
    const done = doneOf(events);
    expect(done.steps).toHaveLength(4);
    expect(done.steps.map((step) => step.type)).toEqual(["tool", "tool", "tool", "reply"]);
    expect(events.filter((event) => event.type === "issue" && event.issue.code === "too-many-steps")).toHaveLength(4);
    // The limit works without a re-ask, but steps the model wrote were lost: the plan is not clean, so none of its side effects run.
    expect(model.calls).toBe(1);
    expect(done.clean).toBe(false);
  });
});

describe("LLMPlanner: streaming", () => {
  it("emits a step as soon as its JSON closes, before the model has finished", async () => {
    const log: string[] = [];
    const model = createLoggingModel(
      [
        '[{"id":"s1","type":"tool","name":"calculator","arguments":{"expr":"21*2+5"}}',
        ',{"id":"s2","type":"tool","name":"arxiv_search","arguments":{"query":"agents"}}',
        ',{"id":"s3","type":"reply","text":"{{s1.value}}"}]',
      ],
      log,
    );
    const planner = new LLMPlanner({ model });
    for await (const event of planner.stream({ query, tools: mcpTools }))
      log.push(event.type === "step" ? `step ${event.step.id}` : event.type);
    expect(log).toEqual([
      "model chunk 0",
      "step s1",
      "model chunk 1",
      "step s2",
      "model chunk 2",
      "model finish",
      "step s3",
      "done",
    ]);
  });

  it('streams steps wrapped as {"steps": [...]} as they close, and drops one cut off', async () => {
    const log: string[] = [];
    const model = createLoggingModel(
      [
        '{"steps": [{"id":"s1","type":"tool","name":"calculator","arguments":{"expr":"21*2+5"}}',
        ',{"id":"s2","type":"reply","text":"{{s1.value}}"}',
        ', {"id":"s3","type":"tool","name":"calcul',
      ],
      log,
    );
    const planner = new LLMPlanner({ model, repair: false });
    const events = [];
    for await (const event of planner.stream({ query, tools: mcpTools })) {
      events.push(event);
      log.push(event.type === "step" ? `step ${event.step.id}` : event.type);
    }
    expect(log.slice(0, 2)).toEqual(["model chunk 0", "step s1"]);
    expect(events.some((event) => event.type === "issue" && event.issue.message.includes("cut off"))).toBe(true);
    expect(doneOf(events).steps.map((step) => step.id)).toEqual(["s1", "s2"]);
  });

  it("emits the first step of a paced scripted answer before its last token", async () => {
    const log: string[] = [];
    const model = createScriptedModel({
      responses: [exampleAnswer],
      charsPerToken: 3,
      tokensPerSecond: 50,
      sleep: async () => {
        log.push("token");
      },
    });
    const planner = new LLMPlanner({ model });
    for await (const event of planner.stream({ query, tools: exampleTools }))
      if (event.type === "step") log.push(`step ${event.step.id}`);
    const tokens = log.filter((entry) => entry === "token").length;
    expect(tokens).toBe(Math.ceil(exampleAnswer.length / 3) - 1);
    expect(log.indexOf("step s1")).toBeLessThan(tokens / 2);
    expect(log.at(-1)).toBe("step s3");
  });

  it("streams the usage and the calls in done", async () => {
    const planner = new LLMPlanner({ model: createScriptedModel({ responses: [exampleAnswer] }) });
    const done = doneOf(await collectEvents(planner.stream({ query, tools: exampleTools })));
    expect(done.usage.modelCalls).toBe(1);
    expect(done.usage.outputTokens).toBe(Math.ceil(exampleAnswer.length / 4));
    expect(done.usage.inputTokens).toBeGreaterThan(100);
    expect(done).toMatchObject({ clean: true, finishReason: "stop", fallback: false });
  });

  it("accepts a ToolRegistry, an MCP tools/list result and the record shape alike", async () => {
    const registry = new ToolRegistry();
    for (const tool of mcpTools) registry.register({ ...tool, execute: () => null });
    for (const tools of [registry, { tools: mcpTools }, exampleTools]) {
      const planner = new LLMPlanner({ model: createScriptedModel({ responses: [exampleAnswer] }) });
      expect(await planner.plan({ query, tools })).toEqual(canonicalExamplePlan);
    }
  });

  it("reads an object with steps and a DAG sketch (vertices, edges)", async () => {
    const sketch = {
      vertices: [
        { id: "task_1", description: "search", tool_binding: "arxiv_search", args: { query: "LLM agents" } },
        { id: "task_2", description: "compute", tool_binding: "calculator", args: { expr: "{{task_1.ret}}" } },
      ],
      edges: [["task_1", "task_2"]],
    };
    const model = createScriptedModel({ responses: [JSON.stringify({ steps: examplePlan }), JSON.stringify(sketch)] });
    const planner = new LLMPlanner({ model });
    expect(await planner.plan({ query, tools: exampleTools })).toEqual(canonicalExamplePlan);
    const steps = await planner.plan({ query, tools: exampleTools });
    expect(steps.map((step) => [step.id, step.type])).toEqual([
      ["task_1", "tool"],
      ["task_2", "tool"],
      ["reply", "reply"],
    ]);
  });

  it("ignores steps after the reply without a re-ask", async () => {
    const answer = JSON.stringify([...examplePlan, { type: "tool", name: "calculator", arguments: { expr: "1" } }]);
    const model = createScriptedModel({ responses: [answer] });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["step s1", "step s2", "issue dropped invalid-step", "step s3", "done"]);
    // A step the model wrote was lost: not clean.
    expect(doneOf(events).clean).toBe(false);
    expect(model.calls).toBe(1);
  });

  it("is not clean when a step after the reply was cut off, though the model said stop", async () => {
    const answer = JSON.stringify(examplePlan);
    const cut = `${answer.slice(0, -1)},{"type":"tool","name":"calculator","arguments":{"expr":"1`;
    const model = createScriptedModel({ responses: [cut] });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["step s1", "step s2", "issue dropped invalid-step", "step s3", "done"]);
    expect(doneOf(events)).toMatchObject({ clean: false, finishReason: "stop" });
    expect(model.calls).toBe(1);
  });

  it("is not clean when a step nests deeper than the reader allows: the step is reported, not lost unseen", async () => {
    const deep = `${"[".repeat(600)}${"]".repeat(600)}`;
    const answer = JSON.stringify(examplePlan).replace('"21*2+5"', deep);
    const model = createScriptedModel({ responses: [answer] });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["step s1", "issue dropped invalid-step", "step s2", "done"]);
    expect(doneOf(events)).toMatchObject({ clean: false, finishReason: "stop" });
  });

  it("adds a reply quoting the final results when the model gives none", async () => {
    const answer = JSON.stringify(examplePlan.slice(0, 2));
    const planner = new LLMPlanner({ model: createScriptedModel({ responses: [answer] }), repair: false });
    const events = await collectEvents(planner.stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["step s1", "step s2", "issue repaired no-reply", "step reply", "done"]);
    const done = doneOf(events);
    expect(done.steps.at(-1)).toEqual({ id: "reply", type: "reply", text: "{{s1}}\n\n{{s2}}" });
    expect(done.clean).toBe(true);
  });

  it("does not re-ask for an answer of valid calls alone, and keeps it clean", async () => {
    const model = createScriptedModel({
      responses: ['[arxiv_search(query="LLM agents survey", max_results=2), calculator(expr="21*2+5")]', "never asked"],
    });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["step s1", "step s2", "issue repaired no-reply", "step reply", "done"]);
    expect(doneOf(events)).toMatchObject({ clean: true, usage: { modelCalls: 1 } });
    expect(model.calls).toBe(1);
  });

  it("still re-asks when a call is wrong as well as the reply missing, and is unclean without a repair", async () => {
    const answer = '[arxiv_search(query="agents"), calculator(expression="1+1")]';
    const repaired = await collectEvents(
      new LLMPlanner({ model: createScriptedModel({ responses: [answer, answer] }) }).stream({
        query,
        tools: exampleTools,
      }),
    );
    expect(repaired.filter((event) => event.type === "repair")).toHaveLength(1);
    const unrepaired = await collectEvents(
      new LLMPlanner({ model: createScriptedModel({ responses: [answer] }), repair: false }).stream({
        query,
        tools: exampleTools,
      }),
    );
    expect(doneOf(unrepaired).clean).toBe(false);
  });
});

describe("LLMPlanner: repair", () => {
  it("re-asks once with the answer and the issues, keeping the accepted steps", async () => {
    const broken =
      '```json\n[{"type":"tool","name":"arxiv_search","arguments":{"query":"LLM agents survey","max_results":2}},{"type":"tool","name":"calculate","arguments":{"expr":"21*2+5"}},{"type":"reply","text":"{{s2.value}}"}]\n```';
    const fixed = JSON.stringify([
      { id: "s1", type: "tool", name: "arxiv_search", arguments: { query: "LLM agents survey", max_results: 2 } },
      { id: "s2", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
      { id: "s3", type: "reply", text: "{{s2.value}}" },
    ]);
    const model = createScriptedModel({ responses: [broken, fixed] });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: mcpTools }));
    expect(traceOf(events)).toEqual([
      "step s1",
      "issue dropped unknown-tool",
      "issue dropped unknown-reference",
      "repair 1",
      "issue dropped duplicate-id",
      "step s2",
      "step s3",
      "done",
    ]);
    const repair = events.find((event) => event.type === "repair");
    expect(repair?.type === "repair" && repair.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["unknown-tool", "/steps/1/name"],
      ["unknown-reference", "/steps/2/text"],
      ["no-reply", "/steps/2"],
    ]);
    const prompt = model.requests[1]?.prompt ?? "";
    expect(prompt).toContain(`<PREVIOUS_ANSWER>\n${broken}\n</PREVIOUS_ANSWER>`);
    expect(prompt).toContain(
      '- [unknown-tool] Step "s2" uses unknown tool "calculate"; did you mean "calculator"? (/steps/1/name)',
    );
    expect(prompt).toContain(
      '<ACCEPTED_STEPS>\n[\n{"id":"s1","type":"tool","name":"arxiv_search","arguments":{"query":"LLM agents survey","max_results":2}}\n]\n</ACCEPTED_STEPS>',
    );
    expect(model.requests[1]?.system).toBe(model.requests[0]?.system);
    const done = doneOf(events);
    expect(done.steps.map((step) => step.id)).toEqual(["s1", "s2", "s3"]);
    expect(done).toMatchObject({ clean: true, fallback: false, usage: { modelCalls: 2 } });
  });

  it("re-asks when the answer cannot be parsed, and plans from the second answer", async () => {
    const model = createScriptedModel({ responses: ["Let me think about which tools to use first.", exampleAnswer] });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual(["repair 1", "step s1", "step s2", "step s3", "done"]);
    const repair = events[0];
    expect(repair?.type === "repair" && repair.issues).toEqual([
      { code: "invalid-step", index: -1, path: "", message: "The answer holds no JSON array of steps" },
    ]);
    expect(model.requests[1]?.prompt).not.toContain("<ACCEPTED_STEPS>");
    expect(doneOf(events).clean).toBe(true);
  });

  it("sets the reply aside during a repair and restores it when the repair brings none", async () => {
    const first = JSON.stringify([
      { id: "s1", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
      { id: "s2", type: "tool", name: "calculator", arguments: { expr: 42 } },
      { id: "s3", type: "reply", text: "{{s1.value}}" },
    ]);
    const second = JSON.stringify([{ id: "s2", type: "tool", name: "calculator", arguments: { expr: "42" } }]);
    const model = createScriptedModel({ responses: [first, second] });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: mcpTools }));
    expect(traceOf(events)).toEqual([
      "step s1",
      "issue dropped invalid-argument",
      "repair 1",
      "step s2",
      "step s3",
      "done",
    ]);
    const done = doneOf(events);
    expect(done.steps.map((step) => step.id)).toEqual(["s1", "s2", "s3"]);
    // The repair fixed the only wrong step; a missing reply alone does not make it unclean.
    expect(done.clean).toBe(true);
  });

  it("makes one re-ask at most", async () => {
    const bad = JSON.stringify([{ type: "tool", name: "nope", arguments: {} }]);
    const model = createScriptedModel({ responses: [bad, bad, bad] });
    const done = doneOf(await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools })));
    expect(model.calls).toBe(2);
    expect(done.fallback).toBe(true);
    expect(done.steps).toEqual([{ id: "s1", type: "reply", text: "(plan unavailable)" }]);
  });
});

describe("LLMPlanner: clarification, unclean finishes and failures", () => {
  it("turns a step missing a required argument into a clarifying reply", async () => {
    const answer = JSON.stringify([
      { type: "tool", name: "arxiv_search", arguments: { query: "LLM agents" } },
      { type: "tool", name: "calculator", arguments: {} },
      { type: "reply", text: "{{s2.value}}" },
    ]);
    const tools = {
      calculator: {
        description: "Do arithmetic",
        input_schema: {
          type: "object",
          properties: { expr: { type: "string", description: "the expression" } },
          required: ["expr"],
        },
      },
      arxiv_search: exampleTools.arxiv_search,
    };
    const model = createScriptedModel({ responses: [answer] });
    const events = await collectEvents(
      new LLMPlanner({ model, clarify: true }).stream({ query: "search and calculate", tools }),
    );
    expect(traceOf(events)).toEqual([
      "step s1",
      "issue repaired missing-argument",
      "issue dropped invalid-step",
      "step s2",
      "done",
    ]);
    const done = doneOf(events);
    expect(done.steps.at(-1)).toEqual({
      id: "s2",
      type: "reply",
      text: 'To use "calculator" (Do arithmetic) I need "expr" (the expression). Could you provide it?',
    });
    // The question replaced the rest of the plan: steps were lost, so the plan is not clean and runs no side effect.
    expect(done.clean).toBe(false);
    expect(model.calls).toBe(1);
  });

  it("writes the clarification with a custom function", async () => {
    const answer = JSON.stringify([
      { type: "tool", name: "calculator", arguments: {} },
      { type: "reply", text: "?" },
    ]);
    const planner = new LLMPlanner({
      model: createScriptedModel({ responses: [answer] }),
      clarify: (step, missing) => `Which ${missing.join(" and ")} for ${step.name}?`,
    });
    expect(await planner.plan({ query: "calculate", tools: exampleTools })).toEqual([
      { id: "s1", type: "reply", text: "Which expr for calculator?" },
    ]);
  });

  it("reports a finish other than stop as unclean", async () => {
    const model = createScriptedModel({ responses: [{ text: exampleAnswer, finishReason: "length" }] });
    const done = doneOf(await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools })));
    expect(done.steps).toEqual(canonicalExamplePlan);
    expect(done).toMatchObject({ clean: false, finishReason: "length" });
  });

  it("reports a stream that ended without a finish part as unclean", async () => {
    const model = createScriptedModel({ responses: [exampleAnswer], finishReason: null });
    const done = doneOf(await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools })));
    expect(done).toMatchObject({ clean: false, finishReason: "missing" });
  });

  it("drops a step cut off mid-JSON and re-asks for the rest", async () => {
    const cut = exampleAnswer.slice(0, exampleAnswer.indexOf('"21*2') + 5);
    const model = createScriptedModel({
      responses: [{ text: cut, finishReason: "length" }, JSON.stringify(examplePlan.slice(1))],
    });
    const events = await collectEvents(new LLMPlanner({ model }).stream({ query, tools: exampleTools }));
    expect(traceOf(events)).toEqual([
      "step s1",
      "issue dropped invalid-step",
      "repair 1",
      "step s3",
      "step s4",
      "done",
    ]);
    const done = doneOf(events);
    expect(done.steps.map((step) => step.type === "tool" && step.arguments)).toEqual([
      { query: "LLM agents survey", max_results: 2 },
      { expr: "21*2+5" },
      false,
    ]);
    expect(done).toMatchObject({ clean: true, finishReason: "stop" });
  });

  it("rejects with model-error when the model throws", async () => {
    const model: PlanModel = {
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error("connection reset");
      },
    };
    const error = await caught(() => new LLMPlanner({ model }).plan({ query, tools: exampleTools }));
    expect(PlankitError.isInstance(error) && error.code).toBe("model-error");
    expect((error as Error).message).toContain("connection reset");
  });

  it("rejects with aborted when the signal fires, and stops the model", async () => {
    const controller = new AbortController();
    const requests: PlanModelRequest[] = [];
    const model: PlanModel = {
      async *stream(request) {
        requests.push(request);
        yield { type: "text", text: '[{"type":"tool","name":"calculator","arguments":{"expr":"1"}},' };
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield { type: "text", text: '{"type":"reply","text":"x"}]' };
      },
    };
    const events: string[] = [];
    const error = await caught(async () => {
      for await (const event of new LLMPlanner({ model }).stream({
        query,
        tools: exampleTools,
        signal: controller.signal,
      })) {
        events.push(event.type);
        controller.abort();
      }
    });
    expect(PlankitError.isInstance(error) && error.code).toBe("aborted");
    expect(events).toEqual(["step"]);
    expect(requests[0]?.signal?.aborted).toBe(true);
  });

  it("aborts the model's signal when the consumer stops early", async () => {
    const model = createScriptedModel({ responses: [exampleAnswer] });
    for await (const event of new LLMPlanner({ model }).stream({ query, tools: exampleTools }))
      if (event.type === "step") break;
    expect(model.requests[0]?.signal?.aborted).toBe(true);
  });

  it("rejects invalid options", () => {
    const model = createScriptedModel({ responses: [] });
    const invalid: Partial<LLMPlannerOptions>[] = [
      { maxSteps: 0 },
      { topK: 1.5 },
      { mode: "tree" as "direct" },
      { select: "bm25" as unknown as LLMPlannerOptions["select"] & object },
    ];
    const codes = invalid.map((options) => {
      try {
        new LLMPlanner({ model, ...options });
        return "none";
      } catch (error) {
        return (error as PlankitError).code;
      }
    });
    expect(codes).toEqual(["invalid-options", "invalid-options", "invalid-options", "invalid-options"]);
    expect(() => new LLMPlanner({} as { model: PlanModel })).toThrow(
      "Option model must be a PlanModel with a stream() method, got undefined",
    );
  });

  it("refuses options of the wrong kind that would otherwise read as something else, naming option and value", () => {
    const model = createScriptedModel({ responses: [] });
    const refusals: [Partial<LLMPlannerOptions>, string][] = [
      // "false" is truthy: it used to turn the repair re-ask on.
      [{ repair: "false" as never }, 'Option repair must be true or false, got "false"'],
      [{ clarify: "yes" as never }, 'Option clarify must be true, false or a function, got "yes"'],
      [{ fallbackText: 5 as never }, "Option fallbackText must be a string, got 5"],
      [{ knowledgeBaseTool: ["kb"] as never }, 'Option knowledgeBaseTool must be a tool name, got ["kb"]'],
    ];
    for (const [options, message] of refusals) expect(() => new LLMPlanner({ model, ...options })).toThrow(message);
    const planner = new LLMPlanner({ model });
    expect(() => new LLMPlanner({ model: planner as never })).toThrow(
      "Option model must be a PlanModel with a stream() method (a planner was given: pass planner.model), got",
    );
  });
});

describe("LLMPlanner: sketch mode", () => {
  it("reasons in a first call, then streams the plan built from that reasoning", async () => {
    const reasoning = "1. Goal: surveys and a number.\n2. Steps: search arXiv, then calculate 21*2+5, then reply.";
    const log: string[] = [];
    const chunks = [
      exampleAnswer.slice(0, exampleAnswer.indexOf("},{") + 1),
      exampleAnswer.slice(exampleAnswer.indexOf("},{") + 1),
    ];
    const planModel = createLoggingModel(chunks, log);
    let calls = 0;
    const model: PlanModel & { requests: PlanModelRequest[] } = {
      requests: planModel.requests,
      stream(request) {
        calls++;
        if (calls === 1) {
          planModel.requests.push(request);
          return createScriptedModel({ responses: [reasoning] }).stream(request);
        }
        return planModel.stream(request);
      },
    };
    const planner = new LLMPlanner({ model, mode: "sketch" });
    const events = [];
    for await (const event of planner.stream({ query, tools: exampleTools })) {
      events.push(event);
      if (event.type === "step") log.push(`step ${event.step.id}`);
    }
    expect(model.requests[0]?.prompt).toContain("Think it through, in order:");
    expect(model.requests[0]?.system).toContain("Do not write JSON");
    expect(model.requests[1]?.prompt).toContain(`<REASONING>\n${reasoning}\n</REASONING>`);
    expect(log.slice(0, 2)).toEqual(["model chunk 0", "step s1"]);
    const done = doneOf(events);
    expect(done.steps).toEqual(canonicalExamplePlan);
    expect(done.reasoning).toBe(reasoning);
    expect(done.usage.modelCalls).toBe(2);
  });
});

describe("LLMPlanner: which tools the prompt shows", () => {
  const catalog = Array.from({ length: 10 }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tool number ${index}`,
    inputSchema: { type: "object", properties: {} },
  }));
  const answer = '[{"id":"s1","tool":"tool_9","args":{}},{"id":"s2","reply":"{{s1}}"}]';

  it("shows every tool without a select function, whatever topK says", async () => {
    const model = createScriptedModel({ responses: [answer] });
    await new LLMPlanner({ model, topK: 2 }).plan({ query: "use tool 9", tools: catalog });
    const prompt = `${model.requests[0]?.system ?? ""}${model.requests[0]?.prompt ?? ""}`;
    for (const tool of catalog) expect(prompt).toContain(tool.name);
  });

  it("shows what the select function picks, asking it for topK, and still accepts a call to another catalog tool", async () => {
    const model = createScriptedModel({ responses: [answer] });
    const asked: number[] = [];
    const planner = new LLMPlanner({
      model,
      topK: 2,
      select: (_query, tools, k) => {
        asked.push(k);
        return tools.tools.slice(0, k);
      },
    });
    const steps = await planner.plan({ query: "use tool 9", tools: catalog });
    expect(asked).toEqual([2]);
    const prompt = `${model.requests[0]?.system ?? ""}${model.requests[0]?.prompt ?? ""}`;
    expect(prompt).toContain("tool_0");
    expect(prompt).toContain("tool_1");
    expect(prompt).not.toContain("tool_5");
    expect(steps.map((step) => step.id)).toEqual(["s1", "s2"]);
  });

  it("refuses a selection that is not tools of the catalog, naming the index and the name", async () => {
    const model = createScriptedModel({ responses: [answer, answer] });
    const invented = new LLMPlanner({
      model,
      select: () => [
        { name: "tool_0", description: "", inputSchema: {} },
        { name: "made_up", description: "", inputSchema: {} },
      ],
    });
    expect(await caught(() => invented.plan({ query: "q", tools: catalog }))).toMatchObject({
      code: "invalid-options",
      message: 'The select function returned, at index 1, tool "made_up", which is not in the catalog',
    });
    const notArray = new LLMPlanner({ model, select: (() => "tool_0") as unknown as () => [] });
    expect(await caught(() => notArray.plan({ query: "q", tools: catalog }))).toMatchObject({
      code: "invalid-options",
      message: "The select function returned string, not an array of tools",
    });
  });
});
