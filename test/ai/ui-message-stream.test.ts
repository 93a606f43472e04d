import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import {
  createChatTransport,
  fromUIMessages,
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from "../../src/ai.ts";
import { AgentRuntime, LLMPlanner, noOpReflector, type RuntimeEvent } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import { thrownBy } from "../fixtures/catch-plankit-error.ts";
import { createTestRegistry } from "../runtime/test-tools.ts";

const planText = (steps: unknown[]): string => `[\n${steps.map((step) => JSON.stringify(step)).join(",\n")}\n]`;

/** A runtime over the test tools whose model writes `plan`. */
function createRuntime(plan: unknown[]): AgentRuntime {
  const { registry } = createTestRegistry({ latencyMs: 1 });
  const model = createScriptedModel({ responses: [planText(plan)], tokensPerSecond: 5000 });
  return new AgentRuntime({
    planner: new LLMPlanner({ model }),
    registry,
    memory: false,
    retries: 0,
    maxReplans: 0,
    reflector: noOpReflector,
    idGenerator: () => "run_1",
  });
}

/** Sends a conversation the way useChat does, to a handler that answers with `respond`, and reads the assistant message it builds. */
async function chat(
  respond: (messages: UIMessage[]) => Response,
): Promise<{ message: UIMessage | undefined; body: unknown; errors: string[] }> {
  let body: unknown;
  const transport = new DefaultChatTransport<UIMessage>({
    api: "https://plankit.test/api/chat",
    fetch: async (_url, init) => {
      body = JSON.parse(String(init?.body));
      return respond((body as { messages: UIMessage[] }).messages);
    },
  });
  const stream = await transport.sendMessages({
    trigger: "submit-message",
    chatId: "chat_1",
    messageId: undefined,
    messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "Compare Tokyo and Osaka" }] }],
    abortSignal: undefined,
  });
  let message: UIMessage | undefined;
  const errors: string[] = [];
  for await (const state of readUIMessageStream<UIMessage>({
    stream,
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
  }))
    message = state;
  return { message, body, errors };
}

describe("toUIMessageStreamResponse read by the AI SDK's chat transport", () => {
  it("shows each tool step as a dynamic tool part with its resolved input and output, and the reply as text", async () => {
    const runtime = createRuntime([
      { id: "s1", tool: "lookup", args: { q: "Tokyo" } },
      { id: "s2", tool: "lookup", args: { q: "Osaka" } },
      { id: "s3", tool: "combine", args: { parts: ["{{s1.value}}", "{{s2.value}}"] } },
      { id: "s4", reply: "Both: {{s3.text}}" },
    ]);
    const { message, body, errors } = await chat((messages) =>
      toUIMessageStreamResponse(runtime.run(fromUIMessages(messages))),
    );
    expect(errors).toEqual([]);
    expect(body).toMatchObject({ id: "chat_1", trigger: "submit-message", messages: [{ role: "user" }] });
    expect(message?.id).toBe("run_1");
    expect(message?.role).toBe("assistant");
    expect(message?.parts.map((part) => part.type)).toEqual([
      "step-start",
      "dynamic-tool",
      "dynamic-tool",
      "dynamic-tool",
      "text",
    ]);
    const tools = message?.parts.filter((part) => part.type === "dynamic-tool") ?? [];
    expect(
      tools.map((part) => [
        part.toolCallId,
        part.toolName,
        part.state,
        part.input,
        part.state === "output-available" ? part.output : undefined,
      ]),
    ).toEqual([
      ["s1", "lookup", "output-available", { q: "Tokyo" }, { value: "Tokyo!" }],
      ["s2", "lookup", "output-available", { q: "Osaka" }, { value: "Osaka!" }],
      ["s3", "combine", "output-available", { parts: ["Tokyo!", "Osaka!"] }, { text: "Tokyo!+Osaka!" }],
    ]);
    expect(message?.parts.at(-1)).toMatchObject({ type: "text", text: "Both: Tokyo!+Osaka!", state: "done" });
  });

  it("shows a failed step's error, a skipped dependent's reason and the reply, and reports the failed run as an error", async () => {
    const runtime = createRuntime([
      { id: "s1", tool: "fail", args: {} },
      { id: "s2", tool: "lookup", args: { q: "{{s1.value}}" } },
      { id: "s3", tool: "lookup", args: { q: "Paris" } },
      { id: "s4", reply: "{{s2.value}} / {{s3.value}}" },
    ]);
    const { message, errors } = await chat(() => toUIMessageStreamResponse(runtime.run("go"), { sendEvents: true }));
    // The transient event chunks pass the transport's schema and stay out of the message.
    expect(message?.parts.some((part) => part.type.startsWith("data-"))).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("the service is down");
    const tools = message?.parts.filter((part) => part.type === "dynamic-tool") ?? [];
    expect(tools.map((part) => [part.toolCallId, part.state])).toEqual([
      ["s1", "output-error"],
      ["s2", "output-error"],
      ["s3", "output-available"],
    ]);
    const [failed, skipped] = tools;
    expect(failed?.state === "output-error" ? failed.errorText : "").toContain("the service is down");
    expect(skipped?.state === "output-error" ? skipped.errorText : "").toMatch(/^Skipped: .*s1/u);
    expect(message?.parts.some((part) => part.type === "text")).toBe(true);
  });

  it("sets the stream headers and ends with [DONE]", async () => {
    const response = toUIMessageStreamResponse(createRuntime([{ id: "s1", reply: "hi" }]).run("hi"), {
      headers: { "x-run": "1" },
      status: 201,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-run")).toBe("1");
    const text = await response.text();
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const chunks = text
      .split("\n\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)) as UIMessageChunk);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
  });
});

describe("toUIMessageStream", () => {
  it("sends every runtime event as a transient data chunk on request, and the message id given", async () => {
    const events: RuntimeEvent[] = [];
    const run = createRuntime([
      { id: "s1", tool: "lookup", args: { q: "x" } },
      { id: "s2", reply: "{{s1.value}}" },
    ]).run("x");
    async function* recorded(): AsyncGenerator<RuntimeEvent> {
      for await (const event of run) {
        events.push(event);
        yield event;
      }
    }
    const chunks: UIMessageChunk[] = [];
    const reader = toUIMessageStream(recorded(), { sendEvents: true, messageId: "msg_9" }).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks[0]).toEqual({ type: "start", messageId: "msg_9" });
    const data = chunks.filter((chunk) => chunk.type === "data-plankit");
    expect(data.map((chunk) => (chunk as { data: RuntimeEvent }).data)).toEqual(events);
    expect(data.every((chunk) => (chunk as { transient?: boolean }).transient === true)).toBe(true);
  });

  it("names a misspelt option of the stream, the response and the chat transport instead of ignoring it", () => {
    const runtime = createRuntime([{ id: "s1", reply: "hi" }]);
    const misspelt = { sendEvent: true } as ToUIMessageStreamOptions;
    expect(() => toUIMessageStream(runtime.run("x"), misspelt)).toThrow(
      'Unknown toUIMessageStream option "sendEvent"; did you mean "sendEvents"?',
    );
    expect(() => toUIMessageStreamResponse(runtime.run("x"), { header: {} } as never)).toThrow(
      'Unknown toUIMessageStreamResponse option "header"; did you mean "headers"?',
    );
    expect(() => createChatTransport(runtime, { messageID: "m" } as never)).toThrow(
      'Unknown createChatTransport option "messageID"; did you mean "messageId"?',
    );
  });

  it("reports an aborted run with an abort chunk, and stops reading when cancelled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const runtime = createRuntime([{ id: "s1", reply: "never" }]);
    const chunks: UIMessageChunk[] = [];
    const reader = toUIMessageStream(runtime.run("x", { signal: controller.signal })).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["start", "start-step", "abort", "finish-step", "finish"]);

    let returned = false;
    async function* endless(): AsyncGenerator<RuntimeEvent> {
      try {
        for (let index = 0; ; index++)
          yield { type: "step-retry", runId: "r", t: index, stepId: "s1", attempt: 1, delayMs: 0, cause: "policy" };
      } finally {
        returned = true;
      }
    }
    const stream = toUIMessageStream(endless(), { sendEvents: true });
    const endlessReader = stream.getReader();
    await endlessReader.read();
    await endlessReader.cancel();
    expect(returned).toBe(true);
  });
});

describe("createChatTransport: a chat that runs plans in place, with no server", () => {
  it("answers with the run's message, keeps a regenerated message's id, and stops the run with the chat's signal", async () => {
    const transport = createChatTransport(
      createRuntime([
        { id: "s1", tool: "lookup", args: { q: "Tokyo" } },
        { id: "s2", reply: "Found {{s1.value}}" },
      ]),
    );
    const messages: UIMessage[] = [{ id: "m1", role: "user", parts: [{ type: "text", text: "Tokyo?" }] }];
    const stream = await transport.sendMessages({
      trigger: "regenerate-message",
      chatId: "c",
      messageId: "a1",
      messages,
      abortSignal: undefined,
    });
    let message: UIMessage | undefined;
    for await (const state of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) message = state;
    expect(message?.id).toBe("a1");
    expect(message?.parts.map((part) => part.type)).toEqual(["step-start", "dynamic-tool", "text"]);
    expect(await transport.reconnectToStream({ chatId: "c" })).toBeNull();

    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const stopped = await transport.sendMessages({
      trigger: "submit-message",
      chatId: "c",
      messageId: undefined,
      messages,
      abortSignal: controller.signal,
    });
    const chunks: UIMessageChunk[] = [];
    const reader = stopped.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks.map((chunk) => chunk.type)).toContain("abort");
    await expect(
      transport.sendMessages({
        trigger: "submit-message",
        chatId: "c",
        messageId: undefined,
        messages: [{ id: "x", role: "tool" } as never],
        abortSignal: undefined,
      }),
    ).rejects.toMatchObject({ code: "invalid-input" });
  });
});

describe("fromUIMessages", () => {
  it("reads text parts as the dialog, with an assistant's tool results, leaving out other parts and empty messages", () => {
    expect(
      fromUIMessages([
        { id: "1", role: "system", parts: [{ type: "text", text: "Be brief." }] },
        {
          id: "2",
          role: "user",
          parts: [
            { type: "text", text: "Weather in Paris?" },
            { type: "file", url: "data:,x", mediaType: "text/plain" },
            { type: "text", text: "And Rome." },
          ],
        },
        {
          id: "3",
          role: "assistant",
          parts: [
            { type: "step-start" },
            { type: "reasoning", text: "thinking" },
            { type: "dynamic-tool", toolName: "lookup", toolCallId: "s1", state: "input-available", input: {} },
          ],
        },
        {
          id: "4",
          role: "assistant",
          parts: [
            {
              type: "dynamic-tool",
              toolName: "weather",
              toolCallId: "s1",
              state: "output-available",
              input: { city: "Paris" },
              output: { sky: "sunny" },
            },
            {
              type: "tool-weather",
              toolCallId: "s2",
              state: "output-available",
              input: { city: "Rome" },
              output: "x".repeat(500),
            },
            {
              type: "dynamic-tool",
              toolName: "weather",
              toolCallId: "s3",
              state: "output-error",
              input: { city: "Oslo" },
              errorText: "down",
            },
            { type: "text", text: "Sunny in Paris." },
          ],
        },
        { id: "5", role: "assistant", content: "Anything else?" },
      ]),
    ).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris?\n\nAnd Rome." },
      {
        role: "assistant",
        content: `Sunny in Paris.\n\nTool results:\n- weather {"city":"Paris"} → {"sky":"sunny"}\n- weather {"city":"Rome"} → ${"x".repeat(400)}… [100 more characters]`,
      },
      { role: "assistant", content: "Anything else?" },
    ]);
  });

  it("names the message and the value it cannot read", () => {
    expect(thrownBy(() => fromUIMessages([{ id: "1", role: "tool", parts: [] }])).message).toBe(
      'messages[0].role must be "user", "assistant" or "system", got "tool"',
    );
    expect(
      thrownBy(() =>
        fromUIMessages([
          { id: "1", role: "user", parts: [] },
          { id: "2", role: "user" },
        ]),
      ).message,
    ).toBe("messages[1].parts must be a list of message parts, got undefined");
    expect(thrownBy(() => fromUIMessages(["hi"])).code).toBe("invalid-input");
    expect(thrownBy(() => fromUIMessages("hi" as never)).message).toBe(
      'messages must be an array of UI messages, got "hi"',
    );
  });
});

/** A run's events with its reply cut again: the run's own `reply-delta` events replaced by the `reply` text in `parts` pieces. */
async function* withDeltas(events: AsyncIterable<RuntimeEvent>, parts: number): AsyncGenerator<RuntimeEvent> {
  for await (const event of events) {
    if (event.type === "reply-delta") continue;
    if (event.type === "reply") {
      const size = Math.ceil(event.text.length / parts);
      for (let from = 0; from < event.text.length; from += size)
        yield { type: "reply-delta", runId: event.runId, t: event.t, delta: event.text.slice(from, from + size) };
    }
    yield event;
  }
}

async function chunksOf(events: AsyncIterable<RuntimeEvent>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = toUIMessageStream(events).getReader();
  for (let next = await reader.read(); next.done !== true; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

describe("toUIMessageStream with a reply written in pieces", () => {
  const plan = [
    { id: "s1", tool: "lookup", args: { q: "Tokyo" } },
    { id: "s2", reply: "Found {{s1.value}} in the index" },
  ];

  it("writes one text part piece by piece, closed by the reply, which adds nothing", async () => {
    const chunks = await chunksOf(withDeltas(createRuntime(plan).run("q"), 3));
    const text = chunks.filter((chunk) => chunk.type.startsWith("text-"));
    expect(text.map((chunk) => chunk.type)).toEqual([
      "text-start",
      "text-delta",
      "text-delta",
      "text-delta",
      "text-end",
    ]);
    expect(new Set(text.map((chunk) => (chunk as { id: string }).id)).size).toBe(1);
    expect(text.map((chunk) => (chunk.type === "text-delta" ? chunk.delta : "")).join("")).toBe(
      "Found Tokyo! in the index",
    );
    // The first piece comes before the run has ended.
    expect(chunks.findIndex((chunk) => chunk.type === "text-delta")).toBeLessThan(
      chunks.findIndex((chunk) => chunk.type === "finish"),
    );
  });

  it("builds the same message through the chat transport as a run that sends its reply whole", async () => {
    const whole = await chat(() => toUIMessageStreamResponse(createRuntime(plan).run("q")));
    const pieces = await chat(() => toUIMessageStreamResponse(withDeltas(createRuntime(plan).run("q"), 4)));
    expect(pieces.errors).toEqual([]);
    expect(pieces.message?.parts.at(-1)).toMatchObject({
      type: "text",
      text: "Found Tokyo! in the index",
      state: "done",
    });
    expect(pieces.message?.parts.map((part) => part.type)).toEqual(whole.message?.parts.map((part) => part.type));
  });

  it("closes a part cut short by the end of the run, and adds what the pieces left out", async () => {
    const base = { runId: "r1", t: 0 };
    const usage = { modelCalls: 0, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 };
    const cut = await chunksOf(
      (async function* () {
        yield { ...base, type: "reply-delta", delta: "Half" } as RuntimeEvent;
        yield { ...base, type: "run-end", reason: "aborted", usage, durationMs: 1 } as RuntimeEvent;
      })(),
    );
    expect(cut.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "abort",
      "finish-step",
      "finish",
    ]);
    const short = await chunksOf(
      (async function* () {
        yield { ...base, type: "reply-delta", delta: "Tok" } as RuntimeEvent;
        yield { ...base, type: "reply", text: "Tokyo", source: "model" } as RuntimeEvent;
        yield { ...base, type: "run-end", reason: "completed", usage, durationMs: 1 } as RuntimeEvent;
      })(),
    );
    expect(short.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []))).toEqual(["Tok", "yo"]);
  });
});
