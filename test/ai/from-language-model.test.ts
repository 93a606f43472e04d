import { extractReasoningMiddleware, wrapLanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { fromLanguageModel } from "../../src/ai.ts";
import { LLMPlanner } from "../../src/index.ts";
import type { PlanModelPart } from "../../src/model.ts";
import { rejectionOf as failure } from "../fixtures/catch-plankit-error.ts";
import { examplePlan, exampleTools } from "../fixtures/tools/example-tools.ts";

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;
type UnifiedFinish = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "interrupted" | "other";

const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 30, text: 30, reasoning: undefined },
};

function textParts(deltas: readonly string[], finish: UnifiedFinish | null = "stop"): StreamPart[] {
  const parts: StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t1" },
  ];
  for (const delta of deltas) parts.push({ type: "text-delta", id: "t1", delta });
  parts.push({ type: "text-end", id: "t1" });
  if (finish !== null) parts.push({ type: "finish", finishReason: { unified: finish, raw: finish }, usage });
  return parts;
}

function mockModel(parts: StreamPart[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream<StreamPart>(parts) }),
  });
}

async function collect(parts: AsyncIterable<PlanModelPart>): Promise<PlanModelPart[]> {
  const collected: PlanModelPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

describe("fromLanguageModel", () => {
  it("maps text deltas, the finish reason and usage", async () => {
    const model = mockModel(textParts(["[{", '"type":"reply",', '"text":"hi"}]']));
    const parts = await collect(fromLanguageModel(model).stream({ system: "rules", prompt: "hello" }));
    expect(parts).toEqual([
      { type: "text", text: "[{" },
      { type: "text", text: '"type":"reply",' },
      { type: "text", text: '"text":"hi"}]' },
      { type: "finish", reason: "stop", usage: { inputTokens: 120, outputTokens: 30 } },
    ]);
  });

  it("sends the system prompt as instructions, the prompt as the user message, and the call settings", async () => {
    const model = mockModel(textParts(["ok"]));
    await collect(
      fromLanguageModel(model, { temperature: 0, maxOutputTokens: 500 }).stream({ system: "rules", prompt: "hello" }),
    );
    const call = model.doStreamCalls[0];
    expect(call?.prompt).toEqual([
      { role: "system", content: "rules" },
      { role: "user", content: [{ type: "text", text: "hello" }] },
    ]);
    expect(call?.temperature).toBe(0);
    expect(call?.maxOutputTokens).toBe(500);
  });

  it("names a misspelt option, and an option that is not a call setting, instead of ignoring it", () => {
    const model = mockModel(textParts(["ok"]));
    const options = (value: unknown) => () =>
      fromLanguageModel(model, value as Parameters<typeof fromLanguageModel>[1]);
    expect(options({ temprature: 0 })).toThrow(
      'Unknown fromLanguageModel option "temprature"; did you mean "temperature"?',
    );
    expect(options({ maxTokens: 500 })).toThrow('Unknown fromLanguageModel option "maxTokens"');
    // What plankit sends itself is no call setting: the prompt, the tools, the model.
    expect(options({ prompt: "hi" })).toThrow('Unknown fromLanguageModel option "prompt"');
    expect(options("fast")).toThrow('The fromLanguageModel options must be an object, got "fast"');
    expect(options({ temperature: 0, maxRetries: 0, headers: {}, providerOptions: {}, seed: 1 })).not.toThrow();
  });

  it("names a model that is not an AI SDK language model when made, not at the first request", () => {
    const made = (model: unknown) => () => fromLanguageModel(model as Parameters<typeof fromLanguageModel>[0]);
    expect(made(undefined)).toThrow(
      "fromLanguageModel: model must be an AI SDK language model or a model id string, got undefined",
    );
    expect(made({ modelId: "gpt-4o-mini" })).toThrow('got {"modelId":"gpt-4o-mini"}');
    expect(made("openai/gpt-4o-mini")).not.toThrow();
    expect(made(mockModel(textParts(["ok"])))).not.toThrow();
  });

  it("maps every AI SDK finish reason onto the plan model's", async () => {
    const reasons: UnifiedFinish[] = [
      "stop",
      "length",
      "content-filter",
      "error",
      "tool-calls",
      "interrupted",
      "other",
    ];
    const mapped = [];
    for (const reason of reasons) {
      const parts = await collect(fromLanguageModel(mockModel(textParts(["x"], reason))).stream({ prompt: "p" }));
      const last = parts.at(-1);
      mapped.push(last?.type === "finish" ? last.reason : "none");
    }
    expect(mapped).toEqual(["stop", "length", "content-filter", "error", "tool-calls", "other", "other"]);
  });

  it("offers tools natively under names the provider accepts and maps streamed calls back to the catalog's names", async () => {
    const parts: StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "tool-input-start", id: "call_1", toolName: "math_factorial" },
      { type: "tool-input-delta", id: "call_1", delta: '{"number"' },
      { type: "tool-input-delta", id: "call_1", delta: ":5}" },
      { type: "tool-input-end", id: "call_1" },
      { type: "tool-call", toolCallId: "call_1", toolName: "math_factorial", input: '{"number":5}' },
      { type: "tool-call", toolCallId: "call_2", toolName: "weather", input: '{"city":"Paris"}' },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ];
    const model = mockModel(parts);
    const schema = { type: "object", properties: { number: { type: "integer" } }, required: ["number"] };
    const seen = await collect(
      fromLanguageModel(model).stream({
        prompt: "5! and the weather in Paris",
        tools: [
          { name: "math.factorial", description: "n!", inputSchema: schema },
          {
            name: "weather",
            description: "Weather",
            inputSchema: { type: "object", properties: { city: { type: "string" } } },
          },
        ],
      }),
    );
    const offered = model.doStreamCalls[0]?.tools ?? [];
    expect(
      offered.map((tool) => (tool.type === "function" ? [tool.name, tool.description, tool.inputSchema] : tool.type)),
    ).toEqual([
      ["math_factorial", "n!", schema],
      ["weather", "Weather", { type: "object", properties: { city: { type: "string" } } }],
    ]);
    expect(seen).toEqual([
      { type: "tool-input-start", callId: "call_1", toolName: "math.factorial" },
      { type: "tool-input-delta", callId: "call_1", delta: '{"number"' },
      { type: "tool-input-delta", callId: "call_1", delta: ":5}" },
      { type: "tool-input-end", callId: "call_1" },
      { type: "tool-call", callId: "call_1", toolName: "math.factorial", input: '{"number":5}' },
      { type: "tool-call", callId: "call_2", toolName: "weather", input: '{"city":"Paris"}' },
      { type: "finish", reason: "tool-calls", usage: { inputTokens: 120, outputTokens: 30 } },
    ]);
  });

  it("sends a call back with its provider metadata and its turn's reasoning (thought signatures, signed thinking)", async () => {
    const thinking = { anthropic: { signature: "sig-1" } };
    const signed = { google: { thoughtSignature: "ts-1" } };
    const first = mockModel([
      { type: "stream-start", warnings: [] },
      { type: "reasoning-start", id: "r1" },
      { type: "reasoning-delta", id: "r1", delta: "Need the " },
      { type: "reasoning-delta", id: "r1", delta: "weather." },
      { type: "reasoning-end", id: "r1", providerMetadata: thinking },
      { type: "tool-call", toolCallId: "c1", toolName: "weather", input: '{"city":"Oslo"}', providerMetadata: signed },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ]);
    const second = mockModel(textParts(["Cold."]));
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async (options) => (calls++ === 0 ? first.doStream(options) : second.doStream(options)),
    });
    const adapted = fromLanguageModel(model);
    const tools = [{ name: "weather", description: "w", inputSchema: { type: "object" } }];
    await collect(adapted.stream({ prompt: "Oslo?", tools }));
    await collect(
      adapted.stream({
        prompt: "Oslo?",
        tools,
        messages: [
          { role: "assistant", text: "", toolCalls: [{ callId: "c1", toolName: "weather", input: { city: "Oslo" } }] },
          { role: "tool", results: [{ callId: "c1", toolName: "weather", output: { celsius: -3 } }] },
        ],
      }),
    );
    const assistant = second.doStreamCalls[0]?.prompt.find((message) => message.role === "assistant");
    expect(assistant?.content).toEqual([
      { type: "reasoning", text: "Need the weather.", providerOptions: thinking },
      { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Oslo" }, providerOptions: signed },
    ]);
  });

  it("sends earlier calls and their results as the provider's assistant and tool messages", async () => {
    const model = mockModel(textParts(["done"]));
    await collect(
      fromLanguageModel(model).stream({
        system: "rules",
        prompt: "5!?",
        tools: [{ name: "math.factorial", description: "n!", inputSchema: { type: "object" } }],
        messages: [
          {
            role: "assistant",
            text: "",
            toolCalls: [{ callId: "c1", toolName: "math.factorial", input: { number: 5 } }],
          },
          { role: "tool", results: [{ callId: "c1", toolName: "math.factorial", output: { value: 120 } }] },
          {
            role: "assistant",
            text: "Again.",
            toolCalls: [{ callId: "c2", toolName: "math.factorial", input: { number: -1 } }],
          },
          {
            role: "tool",
            results: [{ callId: "c2", toolName: "math.factorial", output: "Failed: negative", isError: true }],
          },
        ],
      }),
    );
    const prompt = model.doStreamCalls[0]?.prompt ?? [];
    expect(prompt.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    expect(prompt[2]).toMatchObject({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "math_factorial", input: { number: 5 } }],
    });
    expect(prompt[3]).toMatchObject({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "math_factorial",
          output: { type: "json", value: { value: 120 } },
        },
      ],
    });
    expect(prompt[4]).toMatchObject({
      content: [
        { type: "text", text: "Again." },
        { type: "tool-call", toolCallId: "c2" },
      ],
    });
    expect(prompt[5]).toMatchObject({
      content: [{ type: "tool-result", output: { type: "error-text", value: "Failed: negative" } }],
    });
  });

  it("throws a stream error part as model-error", async () => {
    const parts: StreamPart[] = [
      ...textParts(["partial"], null),
      { type: "error", error: new Error("upstream overloaded") },
    ];
    const seen: PlanModelPart[] = [];
    const error = await failure(
      (async () => {
        for await (const part of fromLanguageModel(mockModel(parts)).stream({ prompt: "p" })) seen.push(part);
      })(),
    );
    expect(seen).toEqual([{ type: "text", text: "partial" }]);
    expect(error.code).toBe("model-error");
    expect(error.message).toContain("upstream overloaded");
  });

  it("keeps a model error's message short when the provider's is a whole validation report, and the report as its cause", async () => {
    const report = `Type validation failed: Value: ${JSON.stringify({ type: "response.failed", padding: "x".repeat(3000) })}`;
    const parts: StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "error", error: new Error(report) },
    ];
    const error = await failure(collect(fromLanguageModel(mockModel(parts)).stream({ prompt: "p" })));
    expect(error.code).toBe("model-error");
    expect(error.message).toMatch(
      /^The language model failed: Error: Type validation failed: Value: \{"type":"response.failed"/,
    );
    expect(error.message.length).toBeLessThanOrEqual(600);
    expect(error.message.endsWith("…")).toBe(true);
    expect((error.cause as Error).message).toBe(report);
  });

  it("throws a failed request as model-error", async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error("connection refused");
      },
    });
    const error = await failure(collect(fromLanguageModel(model, { maxRetries: 0 }).stream({ prompt: "p" })));
    expect(error.code).toBe("model-error");
    expect(error.message).toContain("connection refused");
  });

  it("throws aborted when the signal already fired", async () => {
    const model = mockModel(textParts(["x"]));
    const error = await failure(collect(fromLanguageModel(model).stream({ prompt: "p", signal: AbortSignal.abort() })));
    expect(error.code).toBe("aborted");
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it("lets the planner plan through an AI SDK model", async () => {
    const answer = JSON.stringify(examplePlan);
    const deltas = answer.match(/.{1,7}/gsu) ?? [];
    const planner = new LLMPlanner({ model: fromLanguageModel(mockModel(textParts(deltas))) });
    const events = [];
    for await (const event of planner.stream({ query: "arXiv surveys and 21*2+5", tools: exampleTools }))
      events.push(event);
    const done = events.at(-1);
    expect(done?.type === "done" && done.steps.map((step) => step.id)).toEqual(["s1", "s2", "s3"]);
    expect(done?.type === "done" && done.usage).toEqual({ modelCalls: 1, inputTokens: 120, outputTokens: 30 });
    expect(done?.type === "done" && done.clean).toBe(true);
  });

  it("plans only from the answer of a model whose thought opened in the prompt, with the AI SDK's reasoning middleware", async () => {
    // DeepSeek-R1's chat template puts "<think>" in the prompt: the model writes its thought, then "</think>".
    const thought = `The user wants surveys. Draft: ${JSON.stringify([examplePlan[0], { type: "tool", name: "calculator", arguments: { expr: "1/0" } }])} — no, keep it simple.\n</think>\n\n`;
    const deltas = `${thought}${JSON.stringify(examplePlan)}`.match(/.{1,5}/gsu) ?? [];
    const plan = async (startWithReasoning: boolean): Promise<unknown[]> => {
      const model = wrapLanguageModel({
        model: mockModel(textParts(deltas)),
        middleware: extractReasoningMiddleware({ tagName: "think", startWithReasoning }),
      });
      const planner = new LLMPlanner({ model: fromLanguageModel(model) });
      const steps: unknown[] = [];
      for await (const event of planner.stream({ query: "arXiv surveys and 21*2+5", tools: exampleTools })) {
        if (event.type === "step")
          steps.push(event.step.type === "tool" ? [event.step.name, event.step.arguments] : event.step.type);
      }
      return steps;
    };
    expect(await plan(true)).toEqual([
      ["arxiv_search", examplePlan[0]!.arguments],
      ["calculator", { expr: "21*2+5" }],
      "reply",
    ]);
    // Without it the drafted calls are read as steps too: the reason for the middleware.
    expect((await plan(false)).filter((step) => Array.isArray(step) && step[0] === "calculator")).toHaveLength(2);
  });
});
