import { SELF } from "cloudflare:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";

const origin = "https://plankit.test";

/** The AI SDK's OpenAI provider pointed at the Worker: a real Chat Completions client. */
const plankit = createOpenAI({ baseURL: `${origin}/v1`, apiKey: "any", fetch: (url, init) => SELF.fetch(String(url), init) });

function post(body: unknown): Promise<Response> {
  return SELF.fetch(`${origin}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

describe("POST /v1/chat/completions: the Worker as a Chat Completions model", () => {
  it("streams a run to the OpenAI client: the reply as its text", async () => {
    const result = streamText({ model: plankit.chat("plankit"), prompt: "What is 21*2+5?", temperature: 0.3 });
    const text = await result.text;
    expect(text).toContain("47");
    expect(await result.finishReason).toBe("stop");
  });

  it("answers a whole completion when not streaming, with usage", async () => {
    const result = await generateText({ model: plankit.chat("plankit"), instructions: "Be brief.", prompt: "What is 2+2?" });
    expect(result.text).toContain("4");
    expect(result.finishReason).toBe("stop");
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it("speaks the wire format: SSE chunks then [DONE], the model id, the progress as reasoning_content, usage on request", async () => {
    const response = await post({ model: "gpt-4o", messages: [{ role: "user", content: "What is 2+2?" }], stream: true, stream_options: { include_usage: true }, top_p: 0.5, user: "u1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/u);
    const text = await response.text();
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const chunks = text
      .split("\n\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)) as { object: string; model: string; choices: { delta: { reasoning_content?: string }; finish_reason: string | null }[]; usage?: { total_tokens: number } });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? "").join("")).toMatch(/^s1 calculator \{"expr":.*\}\ns1 done in \d+ ms\n/u);
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.model === "plankit")).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
    const models = (await (await SELF.fetch(`${origin}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(["plankit"]);
  });

  it("refuses what it cannot do, naming the member", async () => {
    const cases: [unknown, string][] = [
      [{ messages: [] }, "messages: messages must not be empty"],
      [{ messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "f" } }] }, "tools: this endpoint plans with the Worker's own tools"],
      [{ messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }] }, "messages: the last message must be a user message with text"],
      [{ messages: [{ role: "user", content: 3 }] }, "messages/0/content: each message content must be a string or a list of content parts"],
    ];
    for (const [body, detail] of cases) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toContain(detail);
    }
  });
});
