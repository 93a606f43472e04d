import { toJsonSchema } from "@valibot/to-json-schema";
import { jsonSchema, readUIMessageStream, tool, type UIMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EagerAgent, type EagerAgentCall } from "../../src/ai.ts";

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A provider that calls `weather` for two cities, then answers from the results it was sent. */
function createProvider(log: string[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const results = prompt.flatMap((message) =>
        message.role === "tool"
          ? message.content.flatMap((part) =>
              part.type === "tool-result" && part.output.type === "json" ? [part.output.value] : [],
            )
          : [],
      );
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (results.length === 0) {
        for (const [id, city] of [
          ["call_1", "Paris"],
          ["call_2", "Tokyo"],
        ] as const) {
          parts.push(
            { type: "tool-input-start", id, toolName: "weather" },
            { type: "tool-input-delta", id, delta: `{"city":"${city}"}` },
            { type: "tool-input-end", id },
          );
        }
        parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
      } else {
        const text = results.map((result) => JSON.stringify(result)).join(" / ");
        parts.push(
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: text },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        );
      }
      // One part every few milliseconds, as a provider streams them.
      const stream = new ReadableStream<StreamPart>({
        async start(controller) {
          for (const part of parts) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            log.push(`model ${part.type}${"id" in part ? ` ${part.id}` : ""}`);
            controller.enqueue(part);
          }
          controller.close();
        },
      });
      return { stream };
    },
  });
}

function createAgent(log: string[], readOnly: boolean): EagerAgent {
  return new EagerAgent({
    model: createProvider(log),
    instructions: "You are a weather assistant.",
    tools: {
      weather: tool({
        description: "The weather in a city",
        inputSchema: jsonSchema<{ city: string }>({
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        }),
        execute: async ({ city }) => {
          log.push(`tool ${city}`);
          return { city, celsius: city.length * 3 };
        },
      }),
    },
    ...(readOnly ? { annotations: { weather: { readOnlyHint: true } } } : {}),
  });
}

describe("EagerAgent", () => {
  it("runs a read-only tool call as soon as its input closes and answers from the results", async () => {
    const log: string[] = [];
    const { text, state } = await createAgent(log, true).generate({ prompt: "Weather in Paris and Tokyo?" });
    expect(text).toBe('{"city":"Paris","celsius":15} / {"city":"Tokyo","celsius":15}');
    expect(state.reason).toBe("completed");
    expect(log.indexOf("tool Paris")).toBeLessThan(log.indexOf("model tool-input-start call_2"));
  });

  it("holds a tool without annotations until the model's turn ended cleanly", async () => {
    const log: string[] = [];
    const { state } = await createAgent(log, false).generate({ prompt: "Weather in Paris and Tokyo?" });
    expect(state.reason).toBe("completed");
    expect(log.indexOf("tool Paris")).toBeGreaterThan(log.indexOf("model finish"));
  });

  it("streams the run as AI SDK UI messages with the tool calls and the answer", async () => {
    const log: string[] = [];
    const stream = createAgent(log, true).stream({
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris and Tokyo?" }] }],
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream: stream.toUIMessageStream() })) last = message;
    const tools = last?.parts.filter((part) => part.type === "dynamic-tool") ?? [];
    expect(tools.map((part) => part.type === "dynamic-tool" && [part.toolName, part.state])).toEqual([
      ["weather", "output-available"],
      ["weather", "output-available"],
    ]);
    const text = last?.parts
      .filter((part) => part.type === "text")
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("");
    expect(text).toContain('"celsius":15');
  });

  it("offers the tools a select function picks, topK of them", async () => {
    const offered: string[][] = [];
    const model = new MockLanguageModelV4({
      doStream: async ({ tools }) => {
        offered.push((tools ?? []).map((item) => item.name));
        const parts: StreamPart[] = [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "ok" },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ];
        return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
      },
    });
    const tools = Object.fromEntries(
      ["weather", "news", "stocks"].map((name) => [
        name,
        tool({ description: name, inputSchema: jsonSchema({ type: "object" }), execute: async () => name }),
      ]),
    );
    const agent = new EagerAgent({
      model,
      tools,
      topK: 1,
      select: (query, catalog, k) => catalog.tools.filter((item) => query.includes(item.name)).slice(0, k),
    });
    expect((await agent.generate({ prompt: "news and stocks?" })).text).toBe("ok");
    expect(offered).toEqual([["news"]]);
  });

  it("refuses a call with neither or both of prompt and messages", () => {
    const agent = createAgent([], true);
    expect(() => agent.stream({})).toThrow(/Give either prompt or messages/);
    expect(() => agent.stream({ prompt: "a", messages: [] })).toThrow(/Give either prompt or messages/);
  });

  it("names a misspelt setting as EagerAgent's, with the closest of its own and the runtime's", () => {
    const model = new MockLanguageModelV4({});
    const misspelt = (settings: Record<string, unknown>) => () =>
      new EagerAgent({ model, tools: {}, ...settings } as ConstructorParameters<typeof EagerAgent>[0]);
    expect(misspelt({ maxStep: 3 })).toThrow('Unknown EagerAgent option "maxStep"; did you mean "maxSteps"?');
    expect(misspelt({ instruction: "Be brief" })).toThrow('did you mean "instructions"?');
    expect(misspelt({ maxReplan: 1 })).toThrow('Unknown EagerAgent option "maxReplan"; did you mean "maxReplans"?');
    // planner and registry are EagerAgent's own to build.
    expect(misspelt({ registry: {} })).toThrow('Unknown EagerAgent option "registry"');
    expect(misspelt({ retries: 2, annotations: {} })).not.toThrow();
  });

  it("names a misspelt model option instead of sending the model's defaults", () => {
    const model = new MockLanguageModelV4({});
    const settings = { model, tools: {}, modelOptions: { temperature: 0, maxTokens: 100 } };
    expect(() => new EagerAgent(settings as ConstructorParameters<typeof EagerAgent>[0])).toThrow(
      'Unknown fromLanguageModel option "maxTokens"; the options are maxOutputTokens, temperature',
    );
  });

  it("counts the tokens of the turns that finished when a later turn is aborted or fails", async () => {
    // Turn 1 calls a read-only tool and reports its usage; every later call fails, or waits until the run is aborted.
    const runWith = async (second: "abort" | "fail") => {
      const controller = new AbortController();
      const model = new MockLanguageModelV4({
        doStream: async () => {
          if (model.doStreamCalls.length === 1) {
            const parts: StreamPart[] = [
              { type: "stream-start", warnings: [] },
              { type: "tool-input-start", id: "c1", toolName: "weather" },
              { type: "tool-input-delta", id: "c1", delta: '{"city":"Paris"}' },
              { type: "tool-input-end", id: "c1" },
              { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
            ];
            return {
              stream: new ReadableStream({
                start: (stream) => (parts.forEach((part) => stream.enqueue(part)), stream.close()),
              }),
            };
          }
          if (second === "fail") throw new Error("overloaded");
          controller.abort();
          return { stream: new ReadableStream<StreamPart>({ start: () => {} }) };
        },
      });
      const agent = new EagerAgent({
        model,
        tools: {
          weather: tool({ inputSchema: jsonSchema<{ city: string }>({ type: "object" }), execute: async () => 21 }),
        },
        annotations: { weather: { readOnlyHint: true } },
        modelOptions: { maxRetries: 0 },
      });
      return (await agent.generate({ prompt: "Weather in Paris?", abortSignal: controller.signal })).state;
    };
    const aborted = await runWith("abort");
    expect(aborted.reason).toBe("aborted");
    expect([aborted.usage.inputTokens, aborted.usage.outputTokens]).toEqual([10, 5]);
    const failed = await runWith("fail");
    expect(failed.reason).toBe("failed");
    // Both turns were asked of the model (the failed one too), and the first reported its tokens.
    expect(failed.usage.modelCalls).toBeGreaterThanOrEqual(2);
    expect([failed.usage.inputTokens, failed.usage.outputTokens]).toEqual([10, 5]);
  });

  it("takes AI SDK model messages, whose content is a list of parts, as ToolLoopAgent does", async () => {
    const model = createProvider([]);
    const agent = new EagerAgent({ model, tools: {} });
    const { state } = await agent.generate({
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
      ],
    });
    expect(state.reason).toBe("completed");
    expect(JSON.stringify(model.doStreamCalls[0]?.prompt)).toContain("Weather in Oslo?");
  });

  it("names annotations for a tool it does not have, which would leave the tool side-effecting unseen", () => {
    const model = new MockLanguageModelV4({});
    const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: "object" }), execute: async () => 21 });
    const annotated = (annotations: Record<string, { readOnlyHint: boolean }>) => () =>
      new EagerAgent({ model, tools: { weather }, annotations });
    expect(annotated({ wether: { readOnlyHint: true } })).toThrow(
      'Unknown EagerAgent annotations option "wether"; did you mean "weather"?',
    );
    expect(annotated({ weather: { readOnlyHint: true } })).not.toThrow();
  });

  it("offers tools with valibot schemas given the toJsonSchema converter the registry's error asks for", async () => {
    const log: string[] = [];
    const model = createProvider(log);
    const weather = tool({
      description: "The weather in a city",
      inputSchema: v.object({ city: v.string() }),
      execute: async ({ city }) => ({ city, celsius: 20 }),
    });
    expect(() => new EagerAgent({ model, tools: { weather } })).toThrow("; EagerAgent takes it as its toJsonSchema");
    const agent = new EagerAgent({ model, tools: { weather }, toJsonSchema });
    const { state } = await agent.generate({ prompt: "Weather in Paris and Tokyo?" });
    expect(state.reason).toBe("completed");
    expect(model.doStreamCalls[0]?.tools?.[0]).toMatchObject({
      name: "weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
  });

  it("names a misspelt field of a call, so an abort signal given as signal is not left unwired", () => {
    const agent = createAgent([], true);
    const call = { prompt: "Weather?", signal: new AbortController().signal } as EagerAgentCall;
    expect(() => agent.stream(call)).toThrow(
      'Unknown EagerAgent call option "signal"; the options are prompt, messages, abortSignal',
    );
  });
});
