import { SELF } from "cloudflare:test";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import { createWorker } from "../../worker/create-worker.ts";
import { createHangingTool } from "./create-hanging-tool.ts";
import { forkOptions } from "./fork-options.workerd.ts";

const origin = "https://plankit.test";

function post(path: string, body: unknown): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const userMessage = (text: string): UIMessage => ({
  id: `m-${text.length}`,
  role: "user",
  parts: [{ type: "text", text }],
});

describe("POST /v1/chat: the AI SDK's useChat transport against the Worker", () => {
  it("streams the plan as tool parts and the reply as text, over the demo model", async () => {
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${origin}/v1/chat`,
      fetch: (url, init) => SELF.fetch(String(url), init),
    });
    const stream = await transport.sendMessages({
      trigger: "submit-message",
      chatId: "chat_1",
      messageId: undefined,
      messages: [userMessage("What is 21*2+5?")],
      abortSignal: undefined,
    });
    let message: UIMessage | undefined;
    const errors: unknown[] = [];
    for await (const state of readUIMessageStream<UIMessage>({ stream, onError: (error) => errors.push(error) }))
      message = state;
    expect(errors).toEqual([]);
    expect(message?.role).toBe("assistant");
    const tools = message?.parts.filter((part) => part.type === "dynamic-tool") ?? [];
    expect(tools.map((part) => [part.toolName, part.state])).toEqual([["calculator", "output-available"]]);
    const text = message?.parts.find((part) => part.type === "text");
    expect(text?.type === "text" ? text.text : "").toContain("47");
  });

  it("answers with the UI message stream headers, the model and the run id", async () => {
    const response = await SELF.fetch(
      post("/v1/chat", { id: "chat_1", messages: [userMessage("What is 2+2?")], trigger: "submit-message" }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("x-plankit-model")).toBe("plankit-demo (offline, scripted)");
    expect(response.headers.get("x-plankit-run-id")).toMatch(/^run_/u);
    const text = await response.text();
    expect(text).toMatch(/^retry: \d+\n\ndata: \{"type":"start"/);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("refuses bodies useChat would not send, naming the member", async () => {
    const cases: [unknown, string][] = [
      [{}, "messages: messages is required"],
      [{ messages: [] }, "messages: messages must not be empty"],
      [
        { messages: [{ role: "robot", parts: [] }] },
        'messages/0/role: each message role must be "user", "assistant" or "system"',
      ],
      [{ messages: [userMessage("hi")], temperature: 2 }, 'temperature: unknown member "temperature"'],
      [
        { messages: [userMessage("hi"), { id: "a", role: "assistant", parts: [{ type: "text", text: "hello" }] }] },
        "messages: the last message must be a user message with text",
      ],
      [{ messages: [userMessage("hi")], tools: ["nope"] }, "tools/0: each tool must be one of:"],
    ];
    for (const [body, detail] of cases) {
      const response = await SELF.fetch(post("/v1/chat", body));
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe("invalid-body");
      expect(problem.detail).toContain(detail);
    }
    const get = await SELF.fetch(`${origin}/v1/chat`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("keeps the key and the token out of the stream, even when a tool's error quotes them", async () => {
    const apiKey = "sk-test-0123456789abcdef";
    const token = "plankit-token-ABCDEFGH";
    const leaky = new ToolRegistry().register({
      name: "leak",
      description: "Fails quoting the key",
      annotations: { readOnlyHint: true },
      execute: () => {
        throw new Error(`cannot use ${apiKey} with ${token}`);
      },
    });
    const worker = createWorker(
      forkOptions({
        createTools: () => leaky,
        selectModel: () => ({
          name: "fixed",
          provider: "openai",
          model: createScriptedModel({
            responses: () => '[{"id":"s1","tool":"leak","args":{}},{"id":"s2","reply":"{{s1}}"}]',
            tokensPerSecond: Infinity,
          }),
        }),
      }),
    );
    const request = new Request(`${origin}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ messages: [userMessage("leak")] }),
    });
    const response = await worker.fetch(request, { OPENAI_API_KEY: apiKey, PLANKIT_TOKEN: token });
    const text = await response.text();
    expect(text).toContain("cannot use [redacted] with [redacted]");
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(token);
  });

  it("aborts the run when the client stops reading", async () => {
    const { registry, state } = createHangingTool();
    const worker = createWorker(
      forkOptions({
        createTools: () => registry,
        selectModel: () => ({
          name: "fixed",
          provider: "demo",
          model: createScriptedModel({
            responses: () => '[{"id":"s1","tool":"wait_forever","args":{}},{"id":"s2","reply":"{{s1}}"}]',
            tokensPerSecond: Infinity,
          }),
        }),
      }),
    );
    const response = await worker.fetch(post("/v1/chat", { messages: [userMessage("wait")] }), {});
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes('"wait_forever"')) {
      const chunk = await reader.read();
      // A stream that ends before the call shows up fails here rather than spinning.
      if (chunk.done) throw new Error(`The stream ended before the tool call: ${text}`);
      text += decoder.decode(chunk.value, { stream: true });
    }
    for (let tries = 0; !state.started && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.started).toBe(true);
    await reader.cancel("client went away");
    for (let tries = 0; !state.aborted && tries < 400; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.aborted).toBe(true);
  });
});
