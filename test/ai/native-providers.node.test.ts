import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { jsonSchema, type LanguageModel, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EagerAgent, fromLanguageModel } from "../../src/ai.ts";
import { ToolCallPlanner } from "../../src/index.ts";
import type { PlannerEvent } from "../../src/runtime.ts";
import { mcpTools } from "../fixtures/tools/example-tools.ts";
import {
  chatCallDelta,
  chatCallStart,
  chatChunk,
  chatEnd,
  chatText,
  createGate,
  type Frame,
  type OpenAIStreamServer,
  responsesCall,
  responsesCompleted,
  responsesCreated,
  responsesText,
  type ScriptedCall,
  startOpenAIStreamServer,
} from "./openai-stream-server.ts";

// The real @ai-sdk/openai (Chat Completions and Responses) and @ai-sdk/openai-compatible providers, over HTTP, against
// a local server that streams like OpenAI: they send `tool-input-end` and `tool-call` for every Chat Completions call
// only when the answer ends. The server holds the end back until the test saw what it waits for, so the order of
// events is asserted, never a wall-clock figure.

let server: OpenAIStreamServer;

beforeAll(async () => {
  server = await startOpenAIStreamServer();
});

afterAll(async () => {
  await server.close();
});

const providers: Record<string, () => LanguageModel> = {
  "@ai-sdk/openai chat": () => createOpenAI({ baseURL: server.baseURL, apiKey: "sk-local" }).chat("local-model"),
  "@ai-sdk/openai-compatible": () =>
    createOpenAICompatible({ name: "local", baseURL: server.baseURL, apiKey: "sk-local" }).chatModel("local-model"),
};

/** A frame that logs when the server gets to it. */
function mark(log: string[], line: string): Frame {
  return {
    wait: async () => {
      log.push(line);
    },
  };
}

/** Splits a text in pieces of `size` characters. */
function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let offset = 0; offset < text.length; offset += size) pieces.push(text.slice(offset, offset + size));
  return pieces;
}

/** Chat Completions deltas of parallel calls, interleaved by index: a piece of each call in turn. */
function interleaved(calls: readonly ScriptedCall[], size: number): string[] {
  const pieces = calls.map((call) => piecesOf(call.arguments, size));
  const events = calls.map((call, index) => chatCallStart(index, call));
  for (let round = 0; pieces.some((list) => round < list.length); round++) {
    for (const [index, list] of pieces.entries()) {
      const piece = list[round];
      if (piece !== undefined) events.push(chatCallDelta(index, piece));
    }
  }
  return events;
}

/** A read-only look-up that logs its start, then calls `started`. */
function weatherTool(log: string[], started: () => void = () => {}) {
  return tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    }),
    execute: async ({ city }) => {
      log.push(`weather ${city}`);
      started();
      return { city, celsius: city.length * 3 };
    },
  });
}

function sendTool(log: string[]) {
  return tool({
    description: "Send a message",
    inputSchema: jsonSchema<{ to: string }>({
      type: "object",
      properties: { to: { type: "string" } },
      required: ["to"],
      additionalProperties: false,
    }),
    execute: async ({ to }) => {
      log.push(`send ${to}`);
      return { sent: true };
    },
  });
}

describe.each(Object.keys(providers))("native calls through %s over HTTP", (name) => {
  const model = (): LanguageModel => (providers[name] as () => LanguageModel)();

  it("makes a call a step before the finish chunk, whatever the split of its arguments", async () => {
    const call: ScriptedCall = { id: "call_1", name: "calculator", arguments: '{"expr":"21*2+5"}' };
    const planner = new ToolCallPlanner({ model: fromLanguageModel(model(), { maxRetries: 0 }) });
    // Every split in two (k = 0: the arguments whole in the second delta; k = length: whole in the first chunk).
    for (let split = 0; split <= call.arguments.length; split++) {
      const gate = createGate();
      const log: string[] = [];
      server.respond = () => [
        chatChunk({ role: "assistant", content: "" }),
        chatCallStart(0, call, call.arguments.slice(0, split)),
        ...(split < call.arguments.length ? [chatCallDelta(0, call.arguments.slice(split))] : []),
        gate.frame,
        mark(log, "finish"),
        ...chatEnd("tool_calls"),
      ];
      const steps: unknown[] = [];
      for await (const event of planner.stream({ query: "q", tools: mcpTools })) {
        if (event.type !== "step" || event.step.type !== "tool") continue;
        steps.push(event.step.arguments);
        log.push("step");
        gate.open();
      }
      expect({ split, openedByTest: gate.openedByTest, log, steps }).toEqual({
        split,
        openedByTest: true,
        log: ["step", "finish"],
        steps: [{ expr: "21*2+5" }],
      });
    }
  });

  it("starts three parallel read-only calls, interleaved by index, before the turn ends; a side-effecting one waits for it", async () => {
    const log: string[] = [];
    const gate = createGate();
    const cities = ["Paris", "Tokyo", "Lagos"];
    const calls: ScriptedCall[] = cities.map((city, index) => ({
      id: `call_${index}`,
      name: "weather",
      arguments: JSON.stringify({ city }),
    }));
    calls.push({ id: "call_3", name: "send", arguments: '{"to":"ops"}' });
    server.respond = (request) =>
      (request.body["messages"] as unknown[]).length > 2
        ? chatText("Done.")
        : [
            chatChunk({ role: "assistant", content: "" }),
            ...interleaved(calls, 3),
            gate.frame,
            mark(log, "finish"),
            ...chatEnd("tool_calls"),
          ];
    const agent = new EagerAgent({
      model: model(),
      tools: {
        weather: weatherTool(log, () => {
          if (log.filter((line) => line.startsWith("weather")).length === cities.length) gate.open();
        }),
        send: sendTool(log),
      },
      annotations: { weather: { readOnlyHint: true } },
    });
    const { text, state } = await agent.generate({ prompt: "Weather in three cities, then tell ops" });
    expect(gate.openedByTest).toBe(true);
    expect(log.slice(0, 4).sort()).toEqual(["finish", "weather Lagos", "weather Paris", "weather Tokyo"].sort());
    expect(log.indexOf("finish")).toBe(3);
    expect(log.slice(4)).toEqual(["send ops"]);
    expect(text).toBe("Done.");
    expect(state.reason).toBe("completed");
  });

  it("never starts a side-effecting call on streamed arguments the final input contradicts", async () => {
    const log: string[] = [];
    // After its JSON closed, the call goes on: the provider's final input is not that JSON.
    server.respond = (request) =>
      (request.body["messages"] as unknown[]).length > 2
        ? chatText("I could not send it.")
        : [
            chatChunk({ role: "assistant", content: "" }),
            chatCallStart(0, { id: "call_w", name: "weather", arguments: "" }, '{"city":"Oslo"}'),
            chatCallStart(1, { id: "call_s", name: "send", arguments: "" }, '{"to":"ops"}'),
            chatCallDelta(1, '{"to":"everyone"}'),
            mark(log, "finish"),
            ...chatEnd("tool_calls"),
          ];
    const agent = new EagerAgent({
      model: model(),
      tools: { weather: weatherTool(log), send: sendTool(log) },
      annotations: { weather: { readOnlyHint: true } },
    });
    const { text, state } = await agent.generate({ prompt: "Weather in Oslo, then tell ops" });
    expect(log).toEqual(["weather Oslo", "finish"]);
    expect(text).toBe("I could not send it.");
    expect(state.issues.map((issue) => issue.code)).toContain("invalid-argument");
    const told = (
      server.requests.at(-1)?.body["messages"] as { role: string; tool_call_id?: string; content?: string }[]
    ).find((message) => message.tool_call_id === "call_s");
    expect(told?.content).toContain("differ from its final arguments");
  });
});

describe("native calls through @ai-sdk/openai responses over HTTP", () => {
  const responses = (): LanguageModel =>
    createOpenAI({ baseURL: server.baseURL, apiKey: "sk-local" }).responses("local-model");

  it("starts each call from its argument deltas, before the provider ends it", async () => {
    const log: string[] = [];
    const gate = createGate();
    const first = responsesCall(0, { id: "call_a", name: "weather", arguments: '{"city":"Paris"}' }, [
      '{"ci',
      'ty":"Pa',
      'ris"}',
    ]);
    const second = responsesCall(1, { id: "call_b", name: "weather", arguments: '{"city":"Lima"}' }, [
      '{"city":',
      '"Lima"}',
    ]);
    server.respond = (request) =>
      request.body["input"] !== undefined && JSON.stringify(request.body["input"]).includes("function_call_output")
        ? responsesText("Paris and Lima.")
        : [
            responsesCreated(),
            ...first.head,
            ...second.head,
            gate.frame,
            mark(log, "end"),
            ...first.tail,
            ...second.tail,
            responsesCompleted(),
          ];
    const agent = new EagerAgent({
      model: responses(),
      tools: {
        weather: weatherTool(log, () => {
          if (log.length === 2) gate.open();
        }),
      },
      annotations: { weather: { readOnlyHint: true } },
    });
    const { text } = await agent.generate({ prompt: "Weather in Paris and Lima" });
    expect(gate.openedByTest).toBe(true);
    expect(log).toEqual(["weather Paris", "weather Lima", "end"]);
    expect(text).toBe("Paris and Lima.");
  });

  it("runs a read-only call again with the final arguments when they differ from the streamed ones, and answers with that run", async () => {
    const log: string[] = [];
    const call = responsesCall(
      0,
      { id: "call_a", name: "weather", arguments: '{"city":"Paris"}' },
      ['{"city":"Paris"}'],
      '{"city":"Lyon"}',
    );
    server.respond = (request) =>
      JSON.stringify(request.body["input"] ?? "").includes("function_call_output")
        ? responsesText("See the result.")
        : [responsesCreated(), ...call.head, mark(log, "end"), ...call.tail, responsesCompleted()];
    const agent = new EagerAgent({
      model: responses(),
      tools: { weather: weatherTool(log) },
      annotations: { weather: { readOnlyHint: true } },
    });
    const { state } = await agent.generate({ prompt: "Weather in Lyon" });
    // The early start read "Paris" (its result unused); the final input "Lyon" is what the model gets an answer for.
    expect(log).toEqual(["weather Paris", "end", "weather Lyon"]);
    const input = server.requests.at(-1)?.body["input"] as { type?: string; call_id?: string; output?: unknown }[];
    const outputs = input.filter((item) => item.type === "function_call_output");
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({ call_id: "call_a" });
    expect(JSON.stringify(outputs[0]?.output)).toContain("Lyon");
    expect(JSON.stringify(outputs[0]?.output)).not.toContain("Paris");
    expect(state.reason).toBe("completed");
  });
  it("runs a side-effecting call in neither version when its final arguments differ from the streamed ones", async () => {
    const log: string[] = [];
    const call = responsesCall(
      0,
      { id: "call_s", name: "send", arguments: '{"to":"ops"}' },
      ['{"to":', '"ops"}'],
      '{"to":"everyone"}',
    );
    server.respond = (request) =>
      JSON.stringify(request.body["input"] ?? "").includes("function_call_output")
        ? responsesText("Not sent.")
        : [responsesCreated(), ...call.head, mark(log, "end"), ...call.tail, responsesCompleted()];
    const agent = new EagerAgent({ model: responses(), tools: { send: sendTool(log) } });
    const { text, state } = await agent.generate({ prompt: "Tell everyone" });
    expect(log).toEqual(["end"]);
    expect(text).toBe("Not sent.");
    expect(
      state.steps
        .filter((step) => step.step.type === "tool")
        .map((step) => [step.step.type === "tool" && step.step.arguments, step.status]),
    ).toEqual([
      [{ to: "ops" }, "skipped"],
      [{ to: "everyone" }, "skipped"],
    ]);
    const input = server.requests.at(-1)?.body["input"] as { type?: string; output?: unknown }[];
    expect(JSON.stringify(input.find((item) => item.type === "function_call_output")?.output)).toContain(
      "differ from its final arguments",
    );
  });
  it('with eager "all", starts a side-effecting call on its streamed arguments, and its final input too', async () => {
    const log: string[] = [];
    const call = responsesCall(
      0,
      { id: "call_s", name: "send", arguments: '{"to":"ops"}' },
      ['{"to":', '"ops"}'],
      '{"to":"everyone"}',
    );
    server.respond = (request) =>
      JSON.stringify(request.body["input"] ?? "").includes("function_call_output")
        ? responsesText("Sent.")
        : [responsesCreated(), ...call.head, mark(log, "end"), ...call.tail, responsesCompleted()];
    const agent = new EagerAgent({ model: responses(), tools: { send: sendTool(log) }, eager: "all" });
    await agent.generate({ prompt: "Tell everyone" });
    // The application's choice: the streamed version ran before the final input arrived, then the final one.
    expect(log).toEqual(["send ops", "end", "send everyone"]);
  });
});

describe("the planner's steps over HTTP", () => {
  it("hands out each parallel call's step in the order its JSON closes", async () => {
    const gate = createGate();
    const calls: ScriptedCall[] = [
      { id: "c0", name: "calculator", arguments: '{"expr":"1+1+1+1+1"}' },
      { id: "c1", name: "calculator", arguments: '{"expr":"2"}' },
    ];
    server.respond = () => [
      chatChunk({ role: "assistant", content: "" }),
      ...interleaved(calls, 4),
      gate.frame,
      ...chatEnd("tool_calls"),
    ];
    const planner = new ToolCallPlanner({
      model: fromLanguageModel(createOpenAI({ baseURL: server.baseURL, apiKey: "sk-local" }).chat("local-model")),
    });
    const events: PlannerEvent[] = [];
    for await (const event of planner.stream({ query: "q", tools: mcpTools })) {
      events.push(event);
      if (events.filter((entry) => entry.type === "step").length === 2) gate.open();
    }
    expect(gate.openedByTest).toBe(true);
    const steps = events.flatMap((event) =>
      event.type === "step" && event.step.type === "tool" ? [event.step.arguments] : [],
    );
    expect(steps).toEqual([{ expr: "2" }, { expr: "1+1+1+1+1" }]);
  });

  it("reports a call whose arguments are not JSON once, with the model's own text", async () => {
    server.respond = () => [
      chatChunk({ role: "assistant", content: "" }),
      chatCallStart(0, { id: "c0", name: "arxiv_search", arguments: "" }, "query=agents"),
      ...chatEnd("tool_calls"),
    ];
    const planner = new ToolCallPlanner({
      model: fromLanguageModel(createOpenAI({ baseURL: server.baseURL, apiKey: "sk-local" }).chat("local-model")),
    });
    const events: PlannerEvent[] = [];
    for await (const event of planner.stream({ query: "q", tools: mcpTools })) events.push(event);
    const dropped = events.flatMap((event) =>
      event.type === "issue" && event.action === "dropped" ? [event.issue] : [],
    );
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ code: "invalid-argument", stepId: "s1" });
    expect(dropped[0]?.message).toContain('"query=agents"');
  });
});

describe("a tool-calling turn sent back to an OpenAI-compatible server", () => {
  it("carries the turn's reasoning and each call's thought signature, as the server sent them", async () => {
    const start = chatCallStart(0, { id: "call_g", name: "weather", arguments: "" }, '{"city":"Oslo"}');
    // Gemini's OpenAI-compatible endpoint signs each call in extra_content.
    const signed = start.replace(
      '"type":"function"',
      '"type":"function","extra_content":{"google":{"thought_signature":"sig-A"}}',
    );
    const before = server.requests.length;
    server.respond = (_request, index) =>
      index === before
        ? [
            chatChunk({ role: "assistant", reasoning_content: "Need Oslo's weather." }),
            signed,
            ...chatEnd("tool_calls"),
          ]
        : chatText("Cold.");
    const agent = new EagerAgent({
      model: providers["@ai-sdk/openai-compatible"]?.() as LanguageModel,
      tools: { weather: weatherTool([]) },
      annotations: { weather: { readOnlyHint: true } },
    });
    const { text } = await agent.generate({ prompt: "Weather in Oslo?" });
    expect(text).toBe("Cold.");
    const messages = server.requests[before + 1]?.body["messages"] as Record<string, unknown>[];
    expect(messages.find((message) => message["role"] === "assistant")).toMatchObject({
      reasoning_content: "Need Oslo's weather.",
      tool_calls: [{ id: "call_g", extra_content: { google: { thought_signature: "sig-A" } } }],
    });
  });
});
