import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { EventSource } from "eventsource";
import OpenAI from "openai";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort, startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { launchChromium } from "../fixtures/browser.ts";
import type { BrowserReport } from "./browser/openai-in-the-browser.ts";
import { type PageServer, servePage } from "./browser/serve-page.ts";
import { type CallCounts, countCalls, expectStoppedAfterLeaving, sleep, until } from "./count-calls.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const token = "e2e-token-7d1f";

let server: WranglerDev;
let page: PageServer;
let client: OpenAI;

beforeAll(async () => {
  page = await servePage(await findFreePort());
  server = await startWranglerDev(root, {
    args: ["--config", join(root, "test", "e2e", "fixture-worker", "wrangler.toml")],
    vars: { PLANKIT_TOKEN: token, PLANKIT_CORS_ORIGINS: page.origin, PLANKIT_DEMO_TOKENS_PER_SECOND: "400" },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
});

afterAll(async () => {
  await server?.stop();
  await page?.stop();
});

const calls = (): Promise<CallCounts> => countCalls(server.url);

describe("the official openai client against wrangler dev", () => {
  it("retrieves and lists the model, and answers completions whole and streamed", async () => {
    expect(await client.models.retrieve("plankit")).toMatchObject({ id: "plankit", object: "model" });
    const listed: string[] = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toEqual(["plankit"]);
    const completion = await client.chat.completions.create({
      model: "plankit",
      messages: [{ role: "user", content: "compare the populations of Tokyo and Paris and compute their ratio" }],
    });
    expect(completion.choices[0]?.message.content).toContain("6.58");
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    let content = "";
    let reasoning = "";
    const usageChunks: unknown[] = [];
    for await (const chunk of await client.chat.completions.create({
      model: "plankit",
      messages: [{ role: "user", content: "compare the populations of Tokyo and Paris and compute their ratio" }],
      stream: true,
      stream_options: { include_usage: true },
    })) {
      content += chunk.choices[0]?.delta.content ?? "";
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
      if (chunk.usage) usageChunks.push(chunk);
    }
    expect(content).toContain("So Tokyo's population is 6.58 times that of Paris.");
    expect(reasoning).toMatch(/^s1 kb_lookup /mu);
    expect(usageChunks).toHaveLength(1);
    expect(usageChunks[0]).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
  });

  it("surfaces refusals as the SDK's typed errors: status, type, param, code and message", async () => {
    const tools = await client.chat.completions
      .create({
        model: "plankit",
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "f", parameters: {} } }],
      })
      .catch((error: unknown) => error);
    expect(tools).toBeInstanceOf(OpenAI.BadRequestError);
    expect(tools).toMatchObject({
      status: 400,
      type: "invalid_request_error",
      param: "tools",
      code: "unsupported_parameter",
    });
    expect((tools as Error).message).toMatch(/^400 tools is not supported \(got 1 tool\)/u);
    const functions = await client.chat.completions
      .create({
        model: "plankit",
        messages: [{ role: "user", content: "hi" }],
        functions: [{ name: "f", parameters: {} }],
      })
      .catch((error: unknown) => error);
    expect(functions).toMatchObject({ status: 400, param: "functions", code: "unsupported_parameter" });
    const empty = await client.chat.completions
      .create({ model: "plankit", messages: [] })
      .catch((error: unknown) => error);
    expect(empty).toMatchObject({
      status: 400,
      type: "invalid_request_error",
      param: "messages",
      code: "invalid_body",
    });
    expect((empty as Error).message).toContain("messages must not be empty");
    const missing = await client.models.retrieve("gpt-4o").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ status: 404, type: "invalid_request_error", code: "model_not_found", param: null });
    const wrongKey = await new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-the-token", maxRetries: 0 }).models
      .list()
      .catch((error: unknown) => error);
    expect(wrongKey).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(wrongKey).toMatchObject({ status: 401, type: "invalid_request_error", code: "invalid_token" });
    expect(JSON.stringify(wrongKey)).not.toContain(token);
  });
});

describe("the AI SDK's OpenAI provider against wrangler dev", () => {
  it("streams the reply as text, and reads a refusal's message", async () => {
    const plankit = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: token });
    const result = streamText({
      model: plankit.chat("plankit"),
      prompt: "compare the populations of Tokyo and Paris and compute their ratio",
    });
    expect(await result.text).toContain("6.58");
    expect(await result.finishReason).toBe("stop");
    const refused = await generateText({
      model: plankit.chat("plankit"),
      prompt: "hi",
      tools: {
        f: tool({
          description: "f",
          inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }),
          execute: async () => ({}),
        }),
      },
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 400 });
    expect((refused as Error).message).toMatch(/^tools is not supported/u);
  });
});

describe("a page of another origin, in Chromium, with the official openai client", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("passes CORS — preflights with the SDK's own headers — and reads content, stream, run id and errors", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    tab.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await tab.goto(page.origin, { waitUntil: "load", timeout: 60_000 });
    await tab.waitForFunction(
      () => typeof (globalThis as { callPlankit?: unknown }).callPlankit === "function",
      undefined,
      { timeout: 30_000 },
    );
    const report = (await tab.evaluate(
      ([baseURL, key]) =>
        (globalThis as unknown as { callPlankit: (baseURL: string, key: string) => Promise<unknown> }).callPlankit(
          baseURL,
          key,
        ),
      [`${server.url}/v1`, token] as const,
    )) as BrowserReport;
    expect(report.model).toBe("plankit");
    expect(report.content).toContain("47");
    expect(report.streamed).toContain("47");
    expect(report.chunks).toBeGreaterThan(2);
    expect(report.runId).toMatch(/^run_/u);
    expect(report.error).toMatchObject({ status: 400, type: "invalid_request_error", param: "tools" });
    expect(report.error.message).toMatch(/^400 tools is not supported/u);
    // The refusal is the only error the page saw (the browser logs the failed request).
    expect(errors.filter((error) => !/status of 400/u.test(error))).toEqual([]);
    await tab.close();
  }, 120_000);

  it("refuses an origin that is not listed", async () => {
    const response = await fetch(`${server.url}/v1/models`, {
      headers: { origin: "http://127.0.0.1:1", authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "origin_not_allowed" } });
  });
});

describe("an EventSource on a durable run", () => {
  it("gets every event once, and stops when the run has ended: the resume past the end answers 204", async () => {
    const created = await fetch(`${server.url}/v1/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "compare the populations of Tokyo and Paris and compute their ratio" }),
    });
    expect(created.status).toBe(202);
    const { links } = (await created.json()) as { links: { events: string } };
    const statuses: number[] = [];
    const source = new EventSource(`${server.url}${links.events}`, {
      fetch: async (input, init) => {
        const response = await fetch(input, {
          ...init,
          headers: { ...init?.headers, authorization: `Bearer ${token}` },
        });
        statuses.push(response.status);
        return response;
      },
    });
    const ids: string[] = [];
    const types: string[] = [];
    const errors: (number | undefined)[] = [];
    for (const type of [
      "model",
      "plan-start",
      "step-planned",
      "step-start",
      "step-end",
      "reply-delta",
      "reply",
      "plan-end",
      "run-end",
    ]) {
      source.addEventListener(type, (event) => {
        ids.push(event.lastEventId);
        types.push(type);
      });
    }
    source.addEventListener("error", (event) => errors.push(event.code));
    await until(async () => source.readyState === EventSource.CLOSED, 60_000);
    expect(types.filter((type) => type === "run-end")).toHaveLength(1);
    expect(types.at(-1)).toBe("run-end");
    expect(new Set(ids).size).toBe(ids.length);
    expect(statuses.at(-1)).toBe(204);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(errors.at(-1)).toBe(204);
    const connections = statuses.length;
    // Closed for good: no reconnection after the retry delay.
    await sleep(4000);
    expect(statuses.length).toBe(connections);
    source.close();
  }, 90_000);
});

describe("a client that leaves", () => {
  const counting = { "x-e2e-model": "counting" };

  it("lets a run it stays for finish all its tool calls", async () => {
    const before = await calls();
    const completion = await client.chat.completions.create(
      { model: "plankit", messages: [{ role: "user", content: "count" }] },
      { headers: counting },
    );
    expect(completion.choices[0]?.message.content).toMatch(/^Counted \d+ calls\.$/u);
    const after = await calls();
    expect(after.finished - before.finished).toBe(3);
    expect(after.aborted).toBe(before.aborted);
  }, 30_000);

  it("stops the tools of a completion that is not streamed", async () => {
    const before = await calls();
    const controller = new AbortController();
    const pending = fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...counting },
      body: JSON.stringify({ model: "plankit", messages: [{ role: "user", content: "count" }] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await until(async () => (await calls()).started > before.started, 10_000);
    controller.abort();
    await pending;
    await expectStoppedAfterLeaving(server.url, before);
  }, 30_000);

  it("leaves no uncaught error or undisposed stub in the Worker's log", async () => {
    await sleep(500);
    const output = server.output();
    expect(output).not.toMatch(/Uncaught|not disposed|Network connection lost/u);
  });
});
