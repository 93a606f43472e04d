import { SELF } from "cloudflare:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";

const origin = "https://plankit.test";

/** The AI SDK's OpenAI provider pointed at the Worker: a real Chat Completions client. */
const plankit = createOpenAI({
  baseURL: `${origin}/v1`,
  apiKey: "any",
  fetch: (url, init) => SELF.fetch(String(url), init),
});

function post(body: unknown): Promise<Response> {
  return SELF.fetch(`${origin}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("POST /v1/chat/completions: the Worker as a Chat Completions model", () => {
  it("streams a run to the OpenAI client: the reply as its text", async () => {
    const result = streamText({ model: plankit.chat("plankit"), prompt: "What is 21*2+5?", temperature: 0.3 });
    const text = await result.text;
    expect(text).toContain("47");
    expect(await result.finishReason).toBe("stop");
  });

  it("answers a whole completion when not streaming, with usage", async () => {
    const result = await generateText({
      model: plankit.chat("plankit"),
      instructions: "Be brief.",
      prompt: "What is 2+2?",
    });
    expect(result.text).toContain("4");
    expect(result.finishReason).toBe("stop");
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it("speaks the wire format: SSE chunks then [DONE], the model id, the progress as reasoning_content, usage as its own last chunk", async () => {
    const response = await post({
      model: "gpt-4o",
      messages: [{ role: "user", content: "What is 2+2?" }],
      stream: true,
      stream_options: { include_usage: true },
      top_p: 0.5,
      user: "u1",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/u);
    const text = await response.text();
    expect(text).toMatch(/^retry: \d+\n\n/u);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const chunks = text
      .split("\n\n")
      .filter((line) => line.startsWith("data: {"))
      .map(
        (line) =>
          JSON.parse(line.slice(6)) as {
            object: string;
            model: string;
            choices: { delta: { content?: string; reasoning_content?: string }; finish_reason: string | null }[];
            usage?: { total_tokens: number };
          },
      );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? "").join("")).toMatch(
      /^s1 calculator \{"expr":.*\}\ns1 done in \d+ ms\n/u,
    );
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.model === "plankit")).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-2)?.usage).toBeUndefined();
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === undefined)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toContain("4");
    const without = await (await post({ messages: [{ role: "user", content: "What is 2+2?" }], stream: true })).text();
    expect(without).not.toContain('"usage"');
  });

  it("lists and retrieves its one model with the official openai client, and refuses any other id in OpenAI's shape", async () => {
    const client = new OpenAI({
      baseURL: `${origin}/v1`,
      apiKey: "any",
      fetch: (url, init) => SELF.fetch(String(url), init),
      maxRetries: 0,
    });
    expect(await client.models.retrieve("plankit")).toMatchObject({
      id: "plankit",
      object: "model",
      owned_by: "plankit",
    });
    const listed = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toEqual(["plankit"]);
    const error = await client.models.retrieve("gpt-5").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, type: "invalid_request_error", code: "model_not_found", param: null });
    expect((error as Error).message).toContain("The model 'gpt-5' does not exist");
  });

  it("refuses what it cannot do in OpenAI's error shape, naming the parameter", async () => {
    const cases: [unknown, string | null, string, string][] = [
      [{ messages: [] }, "messages", "invalid_body", "messages: messages must not be empty"],
      [
        { messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "f" } }] },
        "tools",
        "unsupported_parameter",
        "tools is not supported (got 1 tool)",
      ],
      [
        { messages: [{ role: "user", content: "hi" }], tool_choice: "required" },
        "tool_choice",
        "unsupported_parameter",
        'tool_choice is not supported (got "required")',
      ],
      [
        { messages: [{ role: "user", content: "hi" }], functions: [{ name: "f" }, { name: "g" }] },
        "functions",
        "unsupported_parameter",
        "functions is not supported (got 2 functions)",
      ],
      [
        { messages: [{ role: "user", content: "hi" }], function_call: { name: "f" } },
        "function_call",
        "unsupported_parameter",
        'function_call is not supported (got {"name":"f"})',
      ],
      [
        {
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", content: "hello" },
          ],
        },
        "messages",
        "invalid_body",
        "messages: the last message must be a user message with text",
      ],
      [
        { messages: [{ role: "user", content: 3 }] },
        "messages[0].content",
        "invalid_body",
        "messages/0/content: each message content must be a string or a list of content parts",
      ],
      ["{", null, "invalid_json", "The body is not valid JSON"],
    ];
    for (const [body, param, code, message] of cases) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/u);
      const { error } = (await response.json()) as {
        error: { message: string; type: string; param: string | null; code: string };
      };
      expect(error).toMatchObject({ type: "invalid_request_error", param, code });
      expect(error.message).toContain(message);
    }
    for (const harmless of [{ tools: [] }, { tool_choice: "none" }, { functions: null }, { function_call: "auto" }]) {
      const response = await post({ messages: [{ role: "user", content: "What is 2+2?" }], ...harmless });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    const wrongMethod = await SELF.fetch(`${origin}/v1/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "method_not_allowed" },
    });
  });

  it("surfaces refusals through the official openai client as its typed errors", async () => {
    const client = new OpenAI({
      baseURL: `${origin}/v1`,
      apiKey: "any",
      fetch: (url, init) => SELF.fetch(String(url), init),
      maxRetries: 0,
    });
    const error = await client.chat.completions
      .create({
        model: "plankit",
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "f", parameters: {} } }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      type: "invalid_request_error",
      param: "tools",
      code: "unsupported_parameter",
    });
    expect((error as Error).message).toMatch(/^400 tools is not supported/u);
    const completion = await client.chat.completions.create({
      model: "plankit",
      messages: [{ role: "user", content: "What is 21*2+5?" }],
    });
    expect(completion.choices[0]?.message.content).toContain("47");
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    let content = "";
    let usage = 0;
    for await (const chunk of await client.chat.completions.create({
      model: "plankit",
      messages: [{ role: "user", content: "What is 21*2+5?" }],
      stream: true,
      stream_options: { include_usage: true },
    })) {
      content += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage?.total_tokens ?? usage;
    }
    expect(content).toContain("47");
    expect(usage).toBeGreaterThan(0);
  });
});
