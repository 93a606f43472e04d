import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromLanguageModel } from "../../src/ai.ts";
import { LLMPlanner, PlankitError, ToolCallPlanner } from "../../src/index.ts";
import type { PlannerEvent, StepOutcome } from "../../src/runtime.ts";
import { examplePlan, exampleTools, mcpTools } from "../fixtures/tools/example-tools.ts";
import { chatCompletionEvents, errorBody, type StubAnswer, type StubRequest } from "./openai-stub.ts";

// A local OpenAI-compatible server (test code) streaming chat-completion SSE
// chunks over real HTTP; @ai-sdk/openai is the real client.

const answer = JSON.stringify(examplePlan);
const query = "在 arXiv 找 2 篇 LLM agents 调研;再计算 21*2+5";

let server: Server;
let baseURL = "";
const requests: StubRequest[] = [];
let respond: (request: StubRequest) => StubAnswer = () => ({ text: answer });
/** Awaited before the last content chunk is written, to hold the rest of the answer back. */
let beforeLastChunk: () => Promise<void> = async () => {};

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const received: StubRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        authorization: request.headers.authorization ?? null,
        body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(received);
      if (received.method !== "POST" || received.path !== "/v1/chat/completions") {
        response.writeHead(404).end("not found");
        return;
      }
      const chosen = respond(received);
      if (chosen.status !== undefined) {
        response.writeHead(chosen.status, { "content-type": "application/json" }).end(errorBody(chosen.status));
        return;
      }
      response.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      const events = chatCompletionEvents(chosen);
      for (const [index, event] of events.entries()) {
        if (index === events.length - 3) await beforeLastChunk();
        response.write(event);
        // One chunk per network write, as a real server flushes them.
        await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function planner(options: { maxRetries?: number } = {}): LLMPlanner {
  const openai = createOpenAI({ baseURL, apiKey: "sk-local" });
  return new LLMPlanner({ model: fromLanguageModel(openai.chat("local-model"), options) });
}

describe("@ai-sdk/openai against a local OpenAI-compatible server", () => {
  it("plans over HTTP, streaming SSE chunks", async () => {
    respond = () => ({ text: answer, chunkSize: 5, usage: { prompt_tokens: 400, completion_tokens: 70 } });
    const events: PlannerEvent[] = [];
    for await (const event of planner().stream({ query, tools: exampleTools })) events.push(event);
    const done = events.at(-1);
    expect(done?.type === "done" && done.steps.map((step) => step.id)).toEqual(["s1", "s2", "s3"]);
    expect(done).toMatchObject({
      clean: true,
      finishReason: "stop",
      usage: { modelCalls: 1, inputTokens: 400, outputTokens: 70 },
    });
    const request = requests.at(-1);
    expect(request?.authorization).toBe("Bearer sk-local");
    expect(request?.body).toMatchObject({ model: "local-model", stream: true });
  });

  it("emits the first step while the server holds back the end of the answer", async () => {
    respond = () => ({ text: answer, chunkSize: 16 });
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let heldUntilStep = false;
    beforeLastChunk = () =>
      Promise.race([
        released.then(() => void (heldUntilStep = true)),
        new Promise<void>((resolve) => setTimeout(resolve, 2_000)),
      ]);
    try {
      const seen: string[] = [];
      for await (const event of planner().stream({ query, tools: exampleTools })) {
        if (event.type !== "step") continue;
        seen.push(event.step.id);
        release();
      }
      expect(heldUntilStep).toBe(true);
      expect(seen).toEqual(["s1", "s2", "s3"]);
    } finally {
      beforeLastChunk = async () => {};
    }
  });

  it("repairs a broken first answer with a second request", async () => {
    let call = 0;
    respond = () => (++call === 1 ? { text: "I will search arXiv first, then calculate." } : { text: answer });
    const events: PlannerEvent[] = [];
    for await (const event of planner().stream({ query, tools: exampleTools })) events.push(event);
    expect(events.map((event) => event.type)).toEqual(["repair", "step", "step", "step", "done"]);
    const repairRequest = requests.at(-1)?.body["messages"] as { content: string }[];
    expect(repairRequest[1]?.content).toContain(
      "<PREVIOUS_ANSWER>\nI will search arXiv first, then calculate.\n</PREVIOUS_ANSWER>",
    );
  });

  it("reports an answer that stopped without a finish reason as unclean", async () => {
    respond = () => ({ text: answer, finishReason: null });
    let done: PlannerEvent | undefined;
    for await (const event of planner().stream({ query, tools: exampleTools })) done = event;
    expect(done).toMatchObject({ type: "done", clean: false });
    expect(done?.type === "done" && done.finishReason).not.toBe("stop");
  });

  it("turns an HTTP 500 into a model-error", async () => {
    respond = () => ({ text: "", status: 500 });
    let error: unknown;
    try {
      await planner({ maxRetries: 0 }).plan({ query, tools: exampleTools });
    } catch (caught) {
      error = caught;
    }
    expect(PlankitError.isInstance(error) && error.code).toBe("model-error");
    const messages: string[] = [];
    for (let cause = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
    expect(messages).toContain(`The language model failed (HTTP 500 from ${new URL(baseURL).host}): stub failure 500`);
  });

  it("names the host it could not reach", async () => {
    const unreachable = createServer();
    await new Promise<void>((resolve) => unreachable.listen(0, "127.0.0.1", resolve));
    const { port } = unreachable.address() as AddressInfo;
    await new Promise<void>((resolve) => unreachable.close(() => resolve()));
    const model = fromLanguageModel(
      createOpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "sk-secret" }).chat("m"),
      { maxRetries: 0 },
    );
    let error: unknown;
    try {
      for await (const _part of model.stream({ prompt: "hi" })) {
        // The call fails before any part.
      }
    } catch (caught) {
      error = caught;
    }
    expect(PlankitError.isInstance(error) && error.code).toBe("model-error");
    expect(error instanceof Error && error.message).toMatch(
      new RegExp(`^The language model failed \\(no HTTP answer from 127\\.0\\.0\\.1:${port}\\): Cannot connect to API`),
    );
    expect(error instanceof Error && error.message).not.toContain("sk-secret");
  });

  it("plans from native tool calls streamed as OpenAI deltas, and sends the outcomes back as tool messages", async () => {
    let call = 0;
    respond = () =>
      ++call === 1
        ? {
            text: "",
            chunkSize: 6,
            toolCalls: [
              { id: "call_x", name: "arxiv_search", arguments: '{"query":"LLM agents survey","max_results":2}' },
              { id: "call_y", name: "calculator", arguments: '{"expr":"21*2+5"}' },
            ],
          }
        : { text: "Found 2 surveys; 21*2+5 = 47." };
    const openai = createOpenAI({ baseURL, apiKey: "sk-local" });
    const native = new ToolCallPlanner({ model: fromLanguageModel(openai.chat("local-model")) });
    const asked: string[][] = [];
    const awaitOutcomes = async (ids: readonly string[]): Promise<StepOutcome[]> => {
      asked.push([...ids]);
      return ids.map((id) => ({
        id,
        status: "succeeded",
        result: id === "s2" ? { value: 47 } : { papers: [], total: 2 },
      }));
    };
    const events: PlannerEvent[] = [];
    for await (const event of native.stream({ query, tools: mcpTools, awaitOutcomes })) events.push(event);
    const done = events.at(-1);
    expect(done?.type === "done" && done.steps).toEqual([
      { id: "s1", type: "tool", name: "arxiv_search", arguments: { query: "LLM agents survey", max_results: 2 } },
      { id: "s2", type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
      { id: "s3", type: "reply", text: "Found 2 surveys; 21*2+5 = 47." },
    ]);
    expect(done).toMatchObject({ clean: true, usage: { modelCalls: 2 } });
    expect(asked).toEqual([["s1", "s2"]]);
    const first = requests.at(-2)?.body as {
      tools: { type: string; function: { name: string; parameters: unknown } }[];
    };
    expect(first.tools.map((tool) => tool.function.name).sort()).toEqual([
      "arxiv_search",
      "calculator",
      "fetch_json",
      "query_kb",
    ]);
    const second = requests.at(-1)?.body["messages"] as {
      role: string;
      tool_call_id?: string;
      content?: unknown;
      tool_calls?: { id: string }[];
    }[];
    expect(second.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(second[2]?.tool_calls?.map((entry) => entry.id)).toEqual(["call_x", "call_y"]);
    expect(second[4]).toMatchObject({ role: "tool", tool_call_id: "call_y", content: JSON.stringify({ value: 47 }) });
  });
});
