import { describe, expect, it } from "vitest";
import { AgentRuntime, createScriptedModel, fromChatMessages, LLMPlanner, noOpReflector, toChatCompletionChunks, type ChatCompletionChunk } from "../../src/index.ts";
import { thrownBy } from "../fixtures/catch-plankit-error.ts";
import { createTestRegistry } from "./test-tools.ts";

async function chunksOf(plan: unknown[], options: { progress?: boolean; includeUsage?: boolean } = {}): Promise<ChatCompletionChunk[]> {
  const { registry } = createTestRegistry();
  const text = `[${plan.map((step) => JSON.stringify(step)).join(",")}]`;
  const runtime = new AgentRuntime({ planner: new LLMPlanner({ model: createScriptedModel({ responses: [text], tokensPerSecond: 5000 }) }), registry, memory: false, retries: 0, maxReplans: 0, reflector: noOpReflector, idGenerator: () => "r1" });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of toChatCompletionChunks(runtime.run("q"), { model: "plankit", ...options })) chunks.push(chunk);
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
    expect(chunks.every((chunk) => chunk.id === "chatcmpl-r1" && chunk.object === "chat.completion.chunk" && chunk.model === "plankit")).toBe(true);
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

  it("leaves the progress out on request, and puts usage on the last chunk", async () => {
    const chunks = await chunksOf([{ id: "s1", tool: "lookup", args: { q: "x" } }, { id: "s2", reply: "{{s1.value}}" }], { progress: false, includeUsage: true });
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.reasoning_content !== undefined)).toBe(false);
    const usage = chunks.at(-1)?.usage;
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });
});

describe("fromChatMessages", () => {
  it("reads roles and contents as the dialog, leaving out tool messages and empty ones", () => {
    expect(
      fromChatMessages([
        { role: "developer", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Weather?" }, { type: "image_url", image_url: { url: "x" } }, { type: "text", text: "In Paris." }] },
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
    expect(thrownBy(() => fromChatMessages([{ role: "robot", content: "x" }])).message).toBe('messages[0].role must be "system", "developer", "user", "assistant" or "tool", got "robot"');
    expect(thrownBy(() => fromChatMessages([{ role: "user", content: 5 }])).message).toBe("messages[0].content must be a string or a list of content parts, got 5");
    expect(thrownBy(() => fromChatMessages([null])).code).toBe("invalid-input");
  });
});
