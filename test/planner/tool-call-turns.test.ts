import { describe, expect, it } from "vitest";
import { LLMPlanner, ToolCallPlanner } from "../../src/index.ts";
import type { PlannerEvent, StepOutcome } from "../../src/runtime.ts";
import { createTurnModel, finish, streamedCall, type Turn } from "../fixtures/create-turn-model.ts";
import { mcpTools } from "../fixtures/tools/example-tools.ts";
import { collectEvents, doneOf } from "./planner-test-kit.ts";

function stepsOf(events: readonly PlannerEvent[]) {
  return events.flatMap((event) => (event.type === "step" ? [event.step] : []));
}

describe("ToolCallPlanner", () => {
  it("offers the shown tools natively and makes each call a step the moment its input closes", async () => {
    const log: string[] = [];
    const model = createTurnModel(
      [
        [
          ...streamedCall("c1", "arxiv_search", '{"query":"agents"}'),
          ...streamedCall("c2", "calculator", '{"expr":"21*2+5"}'),
          finish("tool-calls"),
        ],
      ],
      log,
    );
    const planner = new ToolCallPlanner({ model });
    const events: PlannerEvent[] = [];
    for await (const event of planner.stream({ query: "Find papers on agents and compute 21*2+5", tools: mcpTools })) {
      events.push(event);
      if (event.type === "step") log.push(`step ${event.step.id}`);
    }
    // s1 is handed out with the delta that closes its JSON, before the end part and the second call.
    expect(log.indexOf("step s1")).toBe(log.lastIndexOf("model tool-input-delta c1") + 1);
    expect(log.indexOf("step s1")).toBeLessThan(log.indexOf("model tool-input-end c1"));
    expect(stepsOf(events).slice(0, 2)).toEqual([
      { id: "s1", type: "tool", name: "arxiv_search", arguments: { query: "agents" } },
      { id: "s2", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
    ]);
    const request = model.requests[0];
    expect(request?.purpose).toBe("plan");
    expect(request?.tools?.map((tool) => tool.name).sort()).toEqual(mcpTools.map((tool) => tool.name).sort());
    expect(request?.tools?.find((tool) => tool.name === "calculator")?.inputSchema).toEqual(mcpTools[1]?.inputSchema);
    expect(request?.system).toContain("{{s1.field}}");
    expect(request?.prompt).toContain("Find papers on agents");
    const done = doneOf(events);
    expect(done.clean).toBe(true);
    expect(done.steps.at(-1)).toMatchObject({ type: "reply", text: "{{s1}}\n\n{{s2}}" });
  });

  it("lets a call reference an earlier call of the same turn, and refuses a reference to a later one", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "calculator", '{"expr":"6*7"}'),
        ...streamedCall("c2", "calculator", '{"expr":"{{s1.value}}+1"}'),
        ...streamedCall("c3", "calculator", '{"expr":"{{s9.value}}"}'),
        finish("tool-calls"),
      ],
    ]);
    const events = await collectEvents(new ToolCallPlanner({ model }).stream({ query: "q", tools: mcpTools }));
    expect(stepsOf(events).map((step) => step.id)).toEqual(["s1", "s2", "reply"]);
    const issue = events.find((event) => event.type === "issue" && event.action === "dropped");
    expect(issue).toMatchObject({ issue: { code: "unknown-reference", stepId: "s3" } });
    const turnEnd = events.find((event) => event.type === "turn-end");
    expect(turnEnd).toEqual({ type: "turn-end", turn: 0, clean: false, finishReason: "tool-calls" });
    expect(doneOf(events).clean).toBe(false);
  });

  it("reports invalid arguments, unknown tools and non-JSON input with the call's id, and tells the model in the next turn", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "calculator", '{"expr": 42}'),
        ...streamedCall("c2", "launch_rocket", '{"target":"moon"}'),
        { type: "tool-call", callId: "c3", toolName: "arxiv_search", input: "query=agents" },
        finish("tool-calls"),
      ],
      [{ type: "text", text: "I could not run those calls." }, finish("stop")],
    ]);
    const asked: string[][] = [];
    const events = await collectEvents(
      new ToolCallPlanner({ model }).stream({
        query: "q",
        tools: mcpTools,
        awaitOutcomes: async (ids) => {
          asked.push([...ids]);
          return [];
        },
      }),
    );
    const dropped = events.flatMap((event) =>
      event.type === "issue" && event.action === "dropped" ? [event.issue] : [],
    );
    expect(dropped.map((issue) => [issue.code, issue.stepId])).toEqual([
      ["invalid-argument", "s1"],
      ["unknown-tool", "s2"],
      ["invalid-argument", "s3"],
    ]);
    expect(dropped[2]?.message).toContain('"query=agents"');
    expect(events.find((event) => event.type === "turn-end")).toMatchObject({ clean: false });
    expect(asked).toEqual([[]]);
    const results = model.requests[1]?.messages?.[1];
    expect(
      results?.role === "tool" &&
        results.results.map((result) => [result.callId, result.isError, String(result.output).slice(0, 9)]),
    ).toEqual([
      ["c1", true, "Not run: "],
      ["c2", true, "Not run: "],
      ["c3", true, "Not run: "],
    ]);
    expect(results?.role === "tool" && String(results.results[1]?.output)).toContain("launch_rocket");
    expect(doneOf(events)).toMatchObject({
      clean: false,
      steps: [{ id: "s4", type: "reply", text: "I could not run those calls." }],
    });
  });

  it("drops a call cut off by the end of the turn and marks the turn unclean", async () => {
    const cut = streamedCall("c2", "calculator", '{"expr":"1+1"}').slice(0, 2);
    const model = createTurnModel([[...streamedCall("c1", "arxiv_search", '{"query":"a"}'), ...cut, finish("length")]]);
    const events = await collectEvents(new ToolCallPlanner({ model }).stream({ query: "q", tools: mcpTools }));
    expect(stepsOf(events).map((step) => step.id)).toEqual(["s1", "reply"]);
    expect(events.find((event) => event.type === "issue")).toMatchObject({
      action: "dropped",
      issue: { code: "invalid-step", stepId: "s2" },
    });
    expect(events.find((event) => event.type === "turn-end")).toMatchObject({ clean: false, finishReason: "length" });
    expect(doneOf(events)).toMatchObject({ clean: false, finishReason: "length" });
  });

  it("sends each turn's outcomes back to the model and takes its text as the reply", async () => {
    const model = createTurnModel([
      [
        { type: "text", text: "Looking it up." },
        ...streamedCall("call_a", "calculator", '{"expr":"2+2"}'),
        ...streamedCall("call_b", "arxiv_search", '{"query":"x"}'),
        finish("tool-calls"),
      ],
      [...streamedCall("call_c", "calculator", '{"expr":"{{s1.value}}*10"}'), finish("tool-calls")],
      [{ type: "text", text: "It is " }, { type: "text", text: "40." }, finish("stop")],
    ]);
    const asked: string[][] = [];
    const outcomes: Record<string, StepOutcome> = {
      s1: { id: "s1", status: "succeeded", result: { value: 4 } },
      s2: { id: "s2", status: "failed", error: "arXiv is down" },
      s3: { id: "s3", status: "succeeded", result: { value: 40 } },
    };
    const events = await collectEvents(
      new ToolCallPlanner({ model }).stream({
        query: "q",
        tools: mcpTools,
        awaitOutcomes: async (ids) => {
          asked.push([...ids]);
          return ids.flatMap((id) => (outcomes[id] === undefined ? [] : [outcomes[id]]));
        },
      }),
    );
    expect(asked).toEqual([["s1", "s2"], ["s3"]]);
    expect(
      events.filter((event) => event.type === "turn-end").map((event) => event.type === "turn-end" && event.clean),
    ).toEqual([true, true]);
    expect(model.requests[1]?.messages).toEqual([
      {
        role: "assistant",
        text: "Looking it up.",
        toolCalls: [
          { callId: "call_a", toolName: "calculator", input: { expr: "2+2" } },
          { callId: "call_b", toolName: "arxiv_search", input: { query: "x" } },
        ],
      },
      {
        role: "tool",
        results: [
          { callId: "call_a", toolName: "calculator", output: { value: 4 } },
          { callId: "call_b", toolName: "arxiv_search", output: "Failed: arXiv is down", isError: true },
        ],
      },
    ]);
    expect(model.requests[2]?.messages).toHaveLength(4);
    const done = doneOf(events);
    expect(done.steps.map((step) => step.id)).toEqual(["s1", "s2", "s3", "s4"]);
    expect(done.steps.at(-1)).toEqual({ id: "s4", type: "reply", text: "It is 40." });
    expect(done).toMatchObject({ clean: true, finishReason: "stop", usage: { modelCalls: 3 } });
  });

  it("stops after maxTurns turns and after maxSteps steps", async () => {
    const calling = (n: number): Turn => [
      ...streamedCall(`c${n}`, "calculator", `{"expr":"${n}"}`),
      finish("tool-calls"),
    ];
    const model = createTurnModel([calling(1), calling(2), calling(3), calling(4)]);
    const planner = new ToolCallPlanner({ model, maxTurns: 2 });
    const awaited: string[][] = [];
    const awaitOutcomes = async (ids: readonly string[]): Promise<StepOutcome[]> => {
      awaited.push([...ids]);
      return ids.map((id) => ({ id, status: "succeeded", result: { value: 1 } }));
    };
    const events = await collectEvents(planner.stream({ query: "q", tools: mcpTools, awaitOutcomes }));
    expect(model.requests).toHaveLength(2);
    expect(doneOf(events).steps.map((step) => step.type)).toEqual(["tool", "tool", "reply"]);
    // The last turn's outcomes would reach no model: they are not awaited, and the reply says why it quotes results.
    expect(awaited).toEqual([["s1"]]);
    expect(events.find((event) => event.type === "issue")).toMatchObject({
      issue: { code: "no-reply", message: expect.stringContaining("still calling tools after maxTurns (2) turns") },
    });

    const small = createTurnModel([
      [
        ...streamedCall("a", "calculator", '{"expr":"1"}'),
        ...streamedCall("b", "calculator", '{"expr":"2"}'),
        finish("tool-calls"),
      ],
    ]);
    const limited = await collectEvents(
      new ToolCallPlanner({ model: small, maxSteps: 2 }).stream({
        query: "q",
        tools: mcpTools,
        awaitOutcomes,
      }),
    );
    expect(limited.find((event) => event.type === "issue")).toMatchObject({
      issue: { code: "too-many-steps", stepId: "s2" },
    });
    expect(small.requests).toHaveLength(1);
  });

  it("reads calls sent whole and ignores a whole call repeating a streamed one", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "calculator", '{"expr":"1+1"}'),
        { type: "tool-call", callId: "c1", toolName: "calculator", input: '{"expr":"1+1"}' },
        { type: "tool-call", callId: "c2", toolName: "arxiv_search", input: '{"query":"q","max_results":2}' },
        finish("tool-calls"),
      ],
    ]);
    const events = await collectEvents(new ToolCallPlanner({ model }).stream({ query: "q", tools: mcpTools }));
    expect(stepsOf(events).slice(0, 2)).toEqual([
      { id: "s1", type: "tool", name: "calculator", arguments: { expr: "1+1" } },
      { id: "s2", type: "tool", name: "arxiv_search", arguments: { query: "q", max_results: 2 } },
    ]);
  });

  it("makes a call a step when its JSON closes, though the provider ends every call only at the end of the turn", async () => {
    const log: string[] = [];
    const deltas = (callId: string, input: string) =>
      [...input].map((character) => ({ type: "tool-input-delta", callId, delta: character }) as const);
    // Interleaved as OpenAI's parallel calls are, the ends and whole calls only after the last delta.
    const model = createTurnModel(
      [
        [
          { type: "tool-input-start", callId: "c1", toolName: "calculator" },
          { type: "tool-input-start", callId: "c2", toolName: "calculator" },
          ...deltas("c2", '{"expr": "2*3"}'),
          ...deltas("c1", '{ "expr":"1+1" }'),
          { type: "tool-input-end", callId: "c1" },
          { type: "tool-call", callId: "c1", toolName: "calculator", input: '{"expr":"1+1"}' },
          { type: "tool-input-end", callId: "c2" },
          { type: "tool-call", callId: "c2", toolName: "calculator", input: '{"expr":"2*3"}' },
          finish("tool-calls"),
        ],
      ],
      log,
    );
    const events: PlannerEvent[] = [];
    for await (const event of new ToolCallPlanner({ model }).stream({ query: "q", tools: mcpTools })) {
      events.push(event);
      if (event.type === "step")
        log.push(`step ${event.step.id} ${JSON.stringify(event.step.type === "tool" ? event.step.arguments : null)}`);
    }
    const c2Closed = log.lastIndexOf("model tool-input-delta c2");
    const c1Closed = log.lastIndexOf("model tool-input-delta c1");
    expect(log[c2Closed + 1]).toBe('step s1 {"expr":"2*3"}');
    expect(log[c1Closed + 1]).toBe('step s2 {"expr":"1+1"}');
    // The final inputs confirm the steps: nothing more, and the turn is clean.
    expect(events.filter((event) => event.type === "issue" && event.action === "dropped")).toEqual([]);
    expect(events.find((event) => event.type === "turn-end")).toMatchObject({ clean: true });
    // The model hears its calls in the order it began them.
    expect(doneOf(events).steps.map((step) => step.id)).toEqual(["s1", "s2", "reply"]);
  });

  it("runs the provider's final input when it differs from the streamed arguments, never the streamed version", async () => {
    const model = createTurnModel([
      [
        // The streamed arguments close early; the final input the provider reports is another value.
        ...streamedCall("c1", "calculator", '{"expr":"1+1"}').slice(0, -1),
        { type: "tool-call", callId: "c1", toolName: "calculator", input: '{"expr":"2+2"}' },
        // Streamed arguments cut short, completed by the final input.
        { type: "tool-input-start", callId: "c2", toolName: "arxiv_search" },
        { type: "tool-input-delta", callId: "c2", delta: '{"query":"ag' },
        { type: "tool-call", callId: "c2", toolName: "arxiv_search", input: '{"query":"agents"}' },
        finish("tool-calls"),
      ],
      [{ type: "text", text: "Done." }, finish("stop")],
    ]);
    const asked: string[][] = [];
    const events = await collectEvents(
      new ToolCallPlanner({ model }).stream({
        query: "q",
        tools: mcpTools,
        awaitOutcomes: async (ids) => {
          asked.push([...ids]);
          return ids.map((id) => ({ id, status: "succeeded", result: { id } }));
        },
      }),
    );
    expect(stepsOf(events).slice(0, 3)).toEqual([
      { id: "s1", type: "tool", name: "calculator", arguments: { expr: "1+1" } },
      { id: "s2", type: "tool", name: "calculator", arguments: { expr: "2+2" } },
      { id: "s3", type: "tool", name: "arxiv_search", arguments: { query: "agents" } },
    ]);
    const issue = events.find((event) => event.type === "issue");
    expect(issue).toMatchObject({
      action: "dropped",
      issue: { code: "invalid-argument", stepId: "s1", path: "/steps/0/arguments" },
    });
    expect(issue?.type === "issue" && issue.issue.message).toContain(
      '{"expr":"1+1"}, which differ from its final arguments {"expr":"2+2"}',
    );
    // A superseded step makes the turn unclean: a side-effecting tool would run in neither version.
    expect(events.find((event) => event.type === "turn-end")).toMatchObject({ clean: false });
    // The model's calls are answered by the steps of their final inputs; the early step's result is not used.
    expect(asked).toEqual([["s2", "s3"]]);
    expect(model.requests[1]?.messages?.[0]).toEqual({
      role: "assistant",
      text: "",
      toolCalls: [
        { callId: "c1", toolName: "calculator", input: { expr: "2+2" } },
        { callId: "c2", toolName: "arxiv_search", input: { query: "agents" } },
      ],
    });
    expect(model.requests[1]?.messages?.[1]).toEqual({
      role: "tool",
      results: [
        { callId: "c1", toolName: "calculator", output: { id: "s2" } },
        { callId: "c2", toolName: "arxiv_search", output: { id: "s3" } },
      ],
    });
    expect(doneOf(events).steps.map((step) => step.id)).toEqual(["s2", "s3", "s4"]);
  });

  it("tells the model why a superseded call did not run", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "calculator", '{"expr":"1+1"}').slice(0, -1),
        { type: "tool-call", callId: "c1", toolName: "calculator", input: '{"expr":"3+3"}' },
        finish("tool-calls"),
      ],
      [{ type: "text", text: "Sorry." }, finish("stop")],
    ]);
    const outcomes = async (ids: readonly string[]): Promise<StepOutcome[]> =>
      ids.map((id) => ({ id, status: "skipped", reason: "It has side effects" }));
    const events = await collectEvents(
      new ToolCallPlanner({ model }).stream({ query: "q", tools: mcpTools, awaitOutcomes: outcomes }),
    );
    const told = model.requests[1]?.messages?.[1];
    expect(told?.role === "tool" && told.results[0]).toMatchObject({ callId: "c1", isError: true });
    expect(told?.role === "tool" && String(told.results[0]?.output)).toMatch(
      /^Not run: It has side effects; Call "s1" to "calculator" was planned from its streamed arguments/,
    );
    expect(doneOf(events).clean).toBe(false);
  });

  it("withdraws a step of the turn that references a superseded one", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "calculator", '{"expr":"1+1"}').slice(0, -1),
        ...streamedCall("c2", "calculator", '{"expr":"{{s1.value}}*2"}').slice(0, -1),
        { type: "tool-call", callId: "c1", toolName: "calculator", input: '{"expr":"2+2"}' },
        { type: "tool-call", callId: "c2", toolName: "calculator", input: '{"expr":"{{s1.value}}*2"}' },
        finish("tool-calls"),
      ],
      [{ type: "text", text: "Done." }, finish("stop")],
    ]);
    const asked: string[][] = [];
    const awaitOutcomes = async (ids: readonly string[]): Promise<StepOutcome[]> => {
      asked.push([...ids]);
      return ids.map((id) => ({ id, status: "succeeded", result: { value: 4 } }));
    };
    const events = await collectEvents(
      new ToolCallPlanner({ model }).stream({ query: "q", tools: mcpTools, awaitOutcomes }),
    );
    const dropped = events.flatMap((event) =>
      event.type === "issue" && event.action === "dropped" ? [event.issue.stepId] : [],
    );
    expect(dropped).toEqual(["s1", "s2"]);
    expect(asked).toEqual([["s3"]]);
    const told = model.requests[1]?.messages?.[1];
    expect(told?.role === "tool" && told.results[1]).toMatchObject({ callId: "c2", isError: true });
    expect(told?.role === "tool" && String(told.results[1]?.output)).toContain(
      'references call "s1", whose arguments were superseded',
    );
    expect(doneOf(events).steps.map((step) => step.id)).toEqual(["s3", "s4"]);
  });

  it("answers in text alone with a clean reply, and with the fallback text when the model says nothing", async () => {
    const talk = await collectEvents(
      new ToolCallPlanner({
        model: createTurnModel([[{ type: "text", text: "Hello!" }, finish("stop")]]),
      }).stream({ query: "hi", tools: mcpTools }),
    );
    expect(doneOf(talk)).toMatchObject({ clean: true, steps: [{ id: "s1", type: "reply", text: "Hello!" }] });
    const silent = await collectEvents(
      new ToolCallPlanner({ model: createTurnModel([[finish("stop")]]), fallbackText: "(nothing)" }).stream({
        query: "hi",
        tools: mcpTools,
      }),
    );
    expect(doneOf(silent)).toMatchObject({
      clean: false,
      fallback: true,
      steps: [{ type: "reply", text: "(nothing)" }],
    });
  });

  it("refuses an unknown mode and a bad maxTurns, naming the value", () => {
    const model = createTurnModel([]);
    expect(() => new LLMPlanner({ model, mode: "native" as never })).toThrow(
      /mode must be "direct" or "sketch", got "native"/,
    );
    expect(() => new LLMPlanner({ model, mode: "tools" as never })).toThrow(
      /mode must be "direct" or "sketch" \(native tool calls are planned by ToolCallPlanner\), got "tools"/,
    );
    expect(() => new ToolCallPlanner({ model, mode: "sketch" } as never)).toThrow(
      "ToolCallPlanner takes no option mode: it plans from native tool calls; LLMPlanner plans direct or sketched",
    );
    expect(() => new LLMPlanner({ model, maxTurns: 3 } as never)).toThrow(
      "LLMPlanner takes no option maxTurns: native tool calls, in turns, are planned by ToolCallPlanner",
    );
    expect(() => new ToolCallPlanner({ model, maxTurns: 0 })).toThrow(/maxTurns must be an integer >= 1, got 0/);
  });
});
