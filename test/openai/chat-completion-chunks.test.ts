import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentRuntime, LLMPlanner, noOpReflector, type RuntimeEvent } from "../../src/index.ts";
import { type ChatCompletionChunk, fromChatMessages, toChatCompletionChunks } from "../../src/openai.ts";
import { createScriptedModel } from "../../src/test.ts";
import { thrownBy } from "../fixtures/catch-plankit-error.ts";
import { createTestRegistry } from "../runtime/test-tools.ts";

async function chunksOf(
  plan: unknown[],
  options: { progress?: boolean; includeUsage?: boolean } = {},
): Promise<ChatCompletionChunk[]> {
  const { registry } = createTestRegistry();
  const text = `[${plan.map((step) => JSON.stringify(step)).join(",")}]`;
  const runtime = new AgentRuntime({
    planner: new LLMPlanner({ model: createScriptedModel({ responses: [text], tokensPerSecond: 5000 }) }),
    registry,
    memory: false,
    retries: 0,
    maxReplans: 0,
    reflector: noOpReflector,
    idGenerator: () => "r1",
  });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of toChatCompletionChunks(runtime.run("q"), { model: "plankit", ...options }))
    chunks.push(chunk);
  return chunks;
}

describe("toChatCompletionChunks", () => {
  it("sends the role first, the plan's progress as reasoning, the reply as content, and stop last", async () => {
    const chunks = await chunksOf([
      { id: "s1", tool: "lookup", args: { q: "Tokyo" } },
      { id: "s2", tool: "fail", args: {} },
      { id: "s3", tool: "lookup", args: { q: "{{s2.value}}" } },
      { id: "s4", reply: "Found {{s1.value}}" },
    ]);
    expect(
      chunks.every(
        (chunk) => chunk.id === "chatcmpl-r1" && chunk.object === "chat.completion.chunk" && chunk.model === "plankit",
      ),
    ).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    const reasoning = chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? "").join("");
    expect(reasoning).toMatch(/^s1 lookup \{"q":"Tokyo"\}\n/mu);
    expect(reasoning).toMatch(/^s1 done in \d+ ms\n/mu);
    expect(reasoning).toMatch(/^s2 failed: .*the service is down/mu);
    expect(reasoning).toMatch(/^s3 skipped: /mu);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("Found Tokyo!");
    expect(chunks.at(-1)?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    expect(chunks.at(-1)?.usage).toBeUndefined();
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
  });

  it("leaves the progress out on request, and ends with a usage chunk without choices", async () => {
    const chunks = await chunksOf(
      [
        { id: "s1", tool: "lookup", args: { q: "x" } },
        { id: "s2", reply: "{{s1.value}}" },
      ],
      { progress: false, includeUsage: true },
    );
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.reasoning_content !== undefined)).toBe(false);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-2)?.usage).toBeUndefined();
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === undefined)).toBe(true);
    const usage = chunks.at(-1)?.usage;
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });
});

/** A run's events with its reply cut again: the run's own `reply-delta` events replaced by the `reply` text cut at `cuts`. */
async function* withDeltas(events: AsyncIterable<RuntimeEvent>, cuts: readonly number[]): AsyncGenerator<RuntimeEvent> {
  for await (const event of events) {
    if (event.type === "reply-delta") continue;
    if (event.type === "reply") {
      let from = 0;
      for (const cut of [...cuts.filter((at) => at > 0 && at < event.text.length), event.text.length].sort(
        (a, b) => a - b,
      )) {
        yield { type: "reply-delta", runId: event.runId, t: event.t, delta: event.text.slice(from, cut) };
        from = cut;
      }
    }
    yield event;
  }
}

function scriptedRun(plan: unknown[]): AsyncIterable<RuntimeEvent> {
  const { registry } = createTestRegistry();
  const text = `[${plan.map((step) => JSON.stringify(step)).join(",")}]`;
  const runtime = new AgentRuntime({
    planner: new LLMPlanner({ model: createScriptedModel({ responses: [text], tokensPerSecond: 5000 }) }),
    registry,
    memory: false,
    retries: 0,
    maxReplans: 0,
    reflector: noOpReflector,
    idGenerator: () => "r1",
  });
  return runtime.run("q");
}

async function collect(events: AsyncIterable<RuntimeEvent>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of toChatCompletionChunks(events, { model: "plankit" })) chunks.push(chunk);
  return chunks;
}

const content = (chunks: readonly ChatCompletionChunk[]): string[] =>
  chunks.flatMap((chunk) => (chunk.choices[0]?.delta.content ? [chunk.choices[0].delta.content] : []));

describe("toChatCompletionChunks with a reply written in pieces", () => {
  const base = { runId: "r1", t: 0 };
  const end: RuntimeEvent = {
    ...base,
    type: "run-end",
    reason: "completed",
    durationMs: 1,
    usage: { modelCalls: 1, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 1, outputTokens: 1 },
  };

  it("sends each reply-delta as content as it comes, and nothing more when the reply follows", async () => {
    const chunks = await collect(
      (async function* () {
        yield { ...base, type: "reply-delta", delta: "Tokyo has " } as RuntimeEvent;
        yield { ...base, type: "reply-delta", delta: "37 million" } as RuntimeEvent;
        yield { ...base, type: "reply", text: "Tokyo has 37 million", source: "step" } as RuntimeEvent;
        yield end;
      })(),
    );
    expect(content(chunks)).toEqual(["Tokyo has ", "37 million"]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("sends what the pieces left out of the reply, and a reply without pieces whole, each once", async () => {
    const chunks = await collect(
      (async function* () {
        yield { ...base, type: "reply-delta", delta: "Tokyo" } as RuntimeEvent;
        yield { ...base, type: "reply", text: "Tokyo!", source: "step" } as RuntimeEvent;
        yield { ...base, type: "reply-delta", delta: "" } as RuntimeEvent;
        yield { ...base, type: "reply", text: "Second.", source: "model" } as RuntimeEvent;
        yield end;
      })(),
    );
    expect(content(chunks)).toEqual(["Tokyo", "!", "Second."]);
  });

  it("gives the reply once, whole, for a scripted run cut into any pieces", async () => {
    const plan = [
      { id: "s1", tool: "lookup", args: { q: "Tokyo" } },
      { id: "s2", reply: "Found {{s1.value}} in the index" },
    ];
    expect(content(await collect(scriptedRun(plan))).join("")).toBe("Found Tokyo! in the index");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 30 }), { maxLength: 8 }), async (cuts) => {
        const pieces = content(await collect(withDeltas(scriptedRun(plan), cuts)));
        expect(pieces.join("")).toBe("Found Tokyo! in the index");
        expect(pieces.length).toBe(new Set(cuts.filter((at) => at > 0 && at < 25)).size + 1);
      }),
      { numRuns: 25 },
    );
  });
});

describe("fromChatMessages", () => {
  it("reads roles and contents as the dialog, leaving out tool messages and empty ones", () => {
    expect(
      fromChatMessages([
        { role: "developer", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image_url", image_url: { url: "x" } },
            { type: "text", text: "In Paris." },
          ],
        },
        { role: "assistant", content: null, tool_calls: [] },
        { role: "tool", content: "42", tool_call_id: "c1" },
        { role: "assistant", content: "Sunny." },
      ]),
    ).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?\n\nIn Paris." },
      { role: "assistant", content: "Sunny." },
    ]);
  });

  it("names the message and the value it cannot read", () => {
    expect(thrownBy(() => fromChatMessages([{ role: "robot", content: "x" }])).message).toBe(
      'messages[0].role must be "system", "developer", "user", "assistant" or "tool", got "robot"',
    );
    expect(thrownBy(() => fromChatMessages([{ role: "user", content: 5 }])).message).toBe(
      "messages[0].content must be a string or a list of content parts, got 5",
    );
    expect(thrownBy(() => fromChatMessages([null])).code).toBe("invalid-input");
  });

  it("names a content part it cannot read instead of leaving the text out", () => {
    const parts = (...content: unknown[]) => [
      { role: "system", content: "Be brief." },
      { role: "user", content },
    ];
    expect(thrownBy(() => fromChatMessages(parts({ type: "text", text: 5 }))).message).toBe(
      "messages[1].content[0].text must be a string, got 5",
    );
    expect(thrownBy(() => fromChatMessages(parts({ type: "text", text: "a" }, "Weather?"))).message).toBe(
      'messages[1].content[1] must be a content part with a string type, got "Weather?"',
    );
    expect(thrownBy(() => fromChatMessages(parts({ text: "Weather?" }))).code).toBe("invalid-input");
  });
});
