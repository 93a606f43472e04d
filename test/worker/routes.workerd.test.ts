import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/index.ts";
import type { PlanModel } from "../../src/model.ts";
import { createScriptedModel } from "../../src/test.ts";
import { createWorker } from "../../worker/create-worker.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import { selectDemoModel } from "../../worker/demo/select-demo-model.ts";
import type { SelectedModel } from "../../worker/select-model.ts";
import { selectModel } from "../../worker/select-model.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { createHangingTool } from "./create-hanging-tool.ts";
import { forkOptions } from "./fork-options.workerd.ts";
import { parseStrictSse as parseSse } from "./parse-strict-sse.ts";

const origin = "https://plankit.test";
const fast: WorkerEnv = { PLANKIT_DEMO_TOKENS_PER_SECOND: "Infinity" };
const worker = createWorker(demoWorkerOptions);

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function problem(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body["type"]).toBe("about:blank");
  expect(body["status"]).toBe(response.status);
  expect(typeof body["title"]).toBe("string");
  expect(typeof body["detail"]).toBe("string");
  return body;
}

/** A model that answers every call with the same plan. */
function fixedModel(plan: unknown[], tokensPerSecond = Infinity): PlanModel {
  return createScriptedModel({ responses: () => JSON.stringify(plan), tokensPerSecond });
}

/** Reads a body until `predicate` holds for the text so far. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  predicate: (text: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!predicate(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (condition()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error(`condition not met within ${timeoutMs} ms`));
      else setTimeout(check, 5);
    };
    check();
  });
}

describe("the Worker through workerd (SELF)", () => {
  it("serves the web demo as static assets", async () => {
    const page = await SELF.fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
    const html = await page.text();
    for (const testId of ["query", "run", "run-view", "timeline", "tools"])
      expect(html).toContain(`data-testid="${testId}"`);
    expect(html).toMatch(/<plankit-run\b[^>]*data-testid="run-view"/u);
    const script = await SELF.fetch(`${origin}/main.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(10_000);
    expect((await SELF.fetch(`${origin}/styles.css`)).headers.get("content-type")).toMatch(/^text\/css/);
  });

  it("lists the tools and names the model", async () => {
    const response = await SELF.fetch(`${origin}/v1/tools`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-plankit-model")).toBe("plankit-demo (offline, scripted)");
    const body = (await response.json()) as { model: { provider: string }; tools: { name: string }[] };
    expect(body.model.provider).toBe("demo");
    expect(body.tools.map((tool) => tool.name)).toEqual([
      "kb_lookup",
      "kb_search",
      "calculator",
      "convert_units",
      "current_time",
      "slow_lookup",
      "save_note",
    ]);
  });

  it("streams a plan at the demo model's pace and runs it", async () => {
    const plan = await SELF.fetch(post("/v1/plan", { query: "What is 21*2+5?" }));
    expect(plan.status).toBe(200);
    expect(plan.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const planMessages = parseSse(await plan.text());
    expect(planMessages.map((message) => message.event)).toEqual(["model", "step", "step", "done"]);
    const run = await SELF.fetch(post("/v1/run", { query: "What is 21*2+5?" }));
    const runMessages = parseSse(await run.text());
    expect(runMessages.at(-1)?.event).toBe("run-end");
    expect(runMessages.find((message) => message.event === "reply")?.data).toMatchObject({ text: "21 × 2 + 5 = 47." });
  });

  it("answers problems for unknown routes and wrong methods", async () => {
    const missing = await SELF.fetch(`${origin}/v1/nothing`, { method: "POST" });
    expect(missing.status).toBe(404);
    expect(await problem(missing)).toMatchObject({ code: "not-found" });
    const wrongMethod = await SELF.fetch(`${origin}/v1/run`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await problem(wrongMethod)).toMatchObject({ code: "method-not-allowed", title: "Method Not Allowed" });
  });
});

describe("POST /v1/plan", () => {
  it("frames every event as id, event and data, the model first, each step as the step itself, done last", async () => {
    const response = await worker.fetch(
      post("/v1/plan", { query: "compare the populations of Tokyo and Paris and compute their ratio" }),
      fast,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-plankit-model")).toBe("plankit-demo (offline, scripted)");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    const messages = parseSse(await response.text());
    expect(messages.map((message) => message.id)).toEqual(messages.map((_, index) => String(index)));
    expect(messages[0]).toEqual({
      id: "0",
      event: "model",
      data: { type: "model", name: "plankit-demo (offline, scripted)", provider: "demo" },
    });
    const steps = messages.filter((message) => message.event === "step").map((message) => message.data);
    expect(steps).toEqual([
      { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "population of Tokyo" } },
      { id: "s2", type: "tool", name: "kb_lookup", arguments: { query: "population of Paris" } },
      { id: "s3", type: "tool", name: "calculator", arguments: { expr: "round({{s1.value}} / {{s2.value}}, 2)" } },
      expect.objectContaining({ id: "s4", type: "reply" }),
    ]);
    const done = messages.at(-1);
    expect(done?.event).toBe("done");
    expect(done?.data).toMatchObject({ type: "done", clean: true, finishReason: "stop", fallback: false, steps });
  });

  it("plans with the requested tools only, within maxSteps, for a profile", async () => {
    const restricted = parseSse(
      await (
        await worker.fetch(
          post("/v1/plan", {
            query: "compare the populations of Tokyo and Paris and compute their ratio",
            tools: ["kb_lookup"],
          }),
          fast,
        )
      ).text(),
    );
    const names = restricted
      .filter((message) => message.event === "step")
      .map((message) => (message.data as { name?: string }).name);
    expect(names).toEqual(["kb_lookup", "kb_lookup", undefined]);
    const short = parseSse(
      await (
        await worker.fetch(
          post("/v1/plan", { query: "total population of London, Paris and Berlin", maxSteps: 2 }),
          fast,
        )
      ).text(),
    );
    expect(short.filter((message) => message.event === "step")).toHaveLength(2);
    const profiled = await worker.fetch(
      post("/v1/plan", { query: "What is 2+2?", profile: { name: "Ada", role: "analyst", goals: ["be brief"] } }),
      fast,
    );
    expect(profiled.status).toBe(200);
    expect(parseSse(await profiled.text()).at(-1)?.event).toBe("done");
  });

  it("reports a failed model with an error event, and still ends with done", async () => {
    const failing = createWorker({
      ...demoWorkerOptions,
      selectModel: () => ({
        name: "broken",
        provider: "openai",
        model: {
          async *stream() {
            yield { type: "text" as const, text: "[" };
            throw new Error("upstream closed the connection");
          },
        },
      }),
    });
    const messages = parseSse(await (await failing.fetch(post("/v1/plan", { query: "hi" }), {})).text());
    expect(messages.map((message) => message.event)).toEqual(["model", "error", "done"]);
    expect(messages[1]?.data).toEqual({
      type: "error",
      code: "model-error",
      message: "Planning failed: the model stream threw Error: upstream closed the connection",
    });
    expect(messages[2]?.data).toMatchObject({ type: "done", steps: [], clean: false, finishReason: "error" });
  });
});

describe("POST /v1/run", () => {
  it("streams runtime events, the model first and run-end last, with the run id in a header", async () => {
    const response = await worker.fetch(
      post("/v1/run", { query: "compare the populations of Tokyo and Paris and compute their ratio" }),
      fast,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const runId = response.headers.get("x-plankit-run-id");
    expect(runId).toMatch(/^run_/);
    const messages = parseSse(await response.text());
    expect(messages[0]?.event).toBe("model");
    expect(messages.at(-1)).toMatchObject({ event: "run-end", data: { type: "run-end", reason: "completed", runId } });
    for (const message of messages.slice(1)) {
      expect((message.data as { type: string }).type).toBe(message.event);
      expect(message.data).toMatchObject({ runId, t: expect.any(Number) });
    }
    const types = messages.map((message) => message.event);
    expect(types.indexOf("step-start")).toBeLessThan(types.indexOf("plan-end"));
    expect(messages.find((message) => message.event === "reply")?.data).toMatchObject({
      text: expect.stringContaining("So Tokyo's population is 6.58 times that of Paris."),
    });
  });

  it("runs the side-effecting tool only after the plan is complete", async () => {
    const messages = parseSse(
      await // A Worker whose policy marks nothing: the demo's own denies the note on /v1/run.
      (
        await createWorker({ ...demoWorkerOptions, runtime: { policy: {} } }).fetch(
          post("/v1/run", { query: "Look up the population of Berlin and save it as a note" }),
          fast,
        )
      ).text(),
    );
    const types = messages.map((message) => `${message.event}:${(message.data as { tool?: string }).tool ?? ""}`);
    expect(types.indexOf("step-start:save_note")).toBeGreaterThan(types.indexOf("plan-end:"));
    expect(messages.at(-1)?.data).toMatchObject({ reason: "completed" });
  });
});

describe("request validation", () => {
  it("refuses malformed JSON with 400 invalid-json", async () => {
    const response = await worker.fetch(post("/v1/run", '{"query": "x"'), fast);
    expect(response.status).toBe(400);
    const body = await problem(response);
    expect(body).toMatchObject({ title: "Bad Request", code: "invalid-json" });
    expect(String(body["detail"])).toMatch(/^The body is not valid JSON: /);
  });

  it("names the field of every schema violation", async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ query: 42 }, "#/query", /query must be a string/],
      [{}, "#/query", /query is required/],
      [{ query: "   " }, "#/query", /query must not be empty/],
      [{ query: "x".repeat(2001) }, "#/query", /at most 2000 characters/],
      [{ query: "x", tools: ["rm_rf"] }, "#/tools/0", /each tool must be one of: kb_lookup/],
      [{ query: "x", maxSteps: 0 }, "#/maxSteps", /at least 1/],
      [{ query: "x", maxSteps: 2.5 }, "#/maxSteps", /integer/],
      [{ query: "x", profile: { name: "Ada" } }, "#/profile", /profile must be a string or an object/],
      [{ query: "x", temperature: 2 }, "#/temperature", /unknown member "temperature"/],
      [["query"], "#", /must be a JSON object/],
      ["null", "#", /must be a JSON object/],
    ];
    for (const [body, pointer, detail] of cases) {
      const response = await worker.fetch(
        post("/v1/plan", typeof body === "string" ? body : JSON.stringify(body)),
        fast,
      );
      expect(response.status).toBe(400);
      const result = await problem(response);
      expect(result["code"]).toBe("invalid-body");
      const errors = result["errors"] as { pointer: string; detail: string }[];
      expect(errors[0]?.pointer).toBe(pointer);
      expect(errors[0]?.detail).toMatch(detail);
      expect(String(result["detail"])).toMatch(detail);
    }
  });

  it("refuses an oversize body with 413, by Content-Length and while streaming", async () => {
    const env = { ...fast, PLANKIT_MAX_BODY_BYTES: "100" };
    const declared = await worker.fetch(post("/v1/run", { query: "x".repeat(200) }), env);
    expect(declared.status).toBe(413);
    expect(await problem(declared)).toMatchObject({ code: "body-too-large", limit: 100, title: "Content Too Large" });
    const chunks = [
      new TextEncoder().encode('{"query":"'),
      new TextEncoder().encode("y".repeat(150)),
      new TextEncoder().encode('"}'),
    ];
    const streamed = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    });
    const request = new Request(`${origin}/v1/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: streamed,
    });
    expect(request.headers.get("content-length")).toBeNull();
    const response = await worker.fetch(request, env);
    expect(response.status).toBe(413);
    expect(await problem(response)).toMatchObject({
      code: "body-too-large",
      detail: "The body is more than 100 bytes; the limit is 100",
    });
    const fits = await worker.fetch(post("/v1/plan", { query: "What is 1+1?" }), env);
    expect(fits.status).toBe(200);
    await fits.body?.cancel();
  });

  it("refuses bodies that are not JSON with 415", async () => {
    const response = await worker.fetch(
      new Request(`${origin}/v1/run`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: '{"query":"x"}',
      }),
      fast,
    );
    expect(response.status).toBe(415);
    expect(await problem(response)).toMatchObject({ code: "unsupported-media-type" });
    expect(
      (
        await worker.fetch(
          post("/v1/plan", { query: "1+1?" }, { "content-type": "application/json; charset=utf-8" }),
          fast,
        )
      ).status,
    ).toBe(200);
  });

  it("answers 405 and 404 with problem details", async () => {
    const cases: [Request, number, string][] = [
      [new Request(`${origin}/v1/plan`), 405, "POST, OPTIONS"],
      [new Request(`${origin}/v1/tools`, { method: "DELETE" }), 405, "GET, HEAD, OPTIONS"],
      [new Request(`${origin}/health`, { method: "POST" }), 405, "GET, HEAD"],
    ];
    for (const [request, status, allow] of cases) {
      const response = await worker.fetch(request, fast);
      expect(response.status).toBe(status);
      expect(response.headers.get("allow")).toBe(allow);
      await problem(response);
    }
    const missing = await worker.fetch(new Request(`${origin}/v2/run`, { method: "POST" }), fast);
    expect(missing.status).toBe(404);
    expect(await problem(missing)).toMatchObject({ detail: "No route for POST /v2/run" });
  });
});

describe("the bearer token", () => {
  const env = { ...fast, PLANKIT_TOKEN: "correct-horse-battery" };

  it("is required on /v1/* when PLANKIT_TOKEN is set", async () => {
    const missing = await worker.fetch(post("/v1/plan", { query: "1+1?" }), env);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="plankit"');
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await problem(missing)).toMatchObject({ code: "missing-token", title: "Unauthorized" });
    const wrong = await worker.fetch(
      post("/v1/plan", { query: "1+1?" }, { authorization: "Bearer correct-horse-battery-staple" }),
      env,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="plankit", error="invalid_token"');
    const wrongBody = JSON.stringify(await problem(wrong));
    expect(wrongBody).not.toContain("correct-horse-battery");
    expect(
      (await worker.fetch(new Request(`${origin}/v1/tools`, { headers: { authorization: "Basic abc" } }), env)).status,
    ).toBe(401);
    const right = await worker.fetch(
      post("/v1/plan", { query: "1+1?" }, { authorization: "Bearer correct-horse-battery" }),
      env,
    );
    expect(right.status).toBe(200);
    await right.body?.cancel();
  });

  it("is checked before the body, and not needed for /health", async () => {
    const response = await worker.fetch(post("/v1/run", "not json"), env);
    expect(response.status).toBe(401);
    expect((await worker.fetch(new Request(`${origin}/health`), env)).status).toBe(200);
  });
});

describe("CORS", () => {
  const env = { ...fast, PLANKIT_CORS_ORIGINS: "https://app.example.com, https://other.example.com/" };

  it("answers preflights from listed origins and refuses others", async () => {
    const preflight = await worker.fetch(
      new Request(`${origin}/v1/run`, {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, x-stainless-os, x-stainless-retry-count",
        },
      }),
      env,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST,OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")?.split(",")).toEqual([
      "authorization",
      "content-type",
      "x-stainless-os",
      "x-stainless-retry-count",
    ]);
    expect(preflight.headers.get("access-control-max-age")).toBe("600");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    expect(preflight.headers.get("vary")).toContain("Origin");
    const models = await worker.fetch(
      new Request(`${origin}/v1/models/plankit`, {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-method": "GET" },
      }),
      env,
    );
    expect(models.status).toBe(204);
    expect(models.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    const refused = await worker.fetch(
      new Request(`${origin}/v1/run`, { method: "OPTIONS", headers: { origin: "https://evil.example" } }),
      env,
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(await problem(refused)).toMatchObject({ code: "origin-not-allowed" });
  });

  it("marks responses to listed origins, including problems; same-origin requests need no listing", async () => {
    const allowed = await worker.fetch(
      post("/v1/plan", { query: "1+1?" }, { origin: "https://other.example.com" }),
      env,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://other.example.com");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("x-plankit-model");
    await allowed.body?.cancel();
    const invalid = await worker.fetch(post("/v1/plan", "{", { origin: "https://app.example.com" }), env);
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(
      (await worker.fetch(post("/v1/plan", { query: "1+1?" }, { origin: "https://evil.example" }), env)).status,
    ).toBe(403);
    const sameOrigin = await worker.fetch(post("/v1/plan", { query: "1+1?" }, { origin }), fast);
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.headers.get("access-control-allow-origin")).toBeNull();
    await sameOrigin.body?.cancel();
    expect(
      (await worker.fetch(post("/v1/plan", { query: "1+1?" }, { origin: "https://app.example.com" }), fast)).status,
    ).toBe(403);
    const star = await worker.fetch(post("/v1/plan", { query: "1+1?" }, { origin: "https://anyone.example" }), {
      ...fast,
      PLANKIT_CORS_ORIGINS: "*",
    });
    expect(star.headers.get("access-control-allow-origin")).toBe("https://anyone.example");
    await star.body?.cancel();
  });
});

/** A Worker whose plan runs `wait_forever`, which ends only when aborted, then replies with its result. */
function hangingWorker() {
  const { registry, state } = createHangingTool();
  const worker = createWorker(
    forkOptions({
      createTools: () => registry,
      selectModel: () => ({
        name: "fixed",
        provider: "demo",
        model: fixedModel([
          { type: "tool", name: "wait_forever", arguments: {} },
          { type: "reply", text: "{{s1}}" },
        ]),
      }),
    }),
  );
  return { worker, state };
}

describe("client disconnects", () => {
  it("abort the run: the running tool sees its signal fire and stops", async () => {
    const { worker: disconnecting, state } = hangingWorker();
    const response = await disconnecting.fetch(post("/v1/run", { query: "wait" }), {});
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const text = await readUntil(reader, (sofar) => sofar.includes("event: step-start"));
    expect(text).toContain("event: step-start");
    expect(state.started).toBe(true);
    expect(state.aborted).toBe(false);
    await reader.cancel("client went away");
    await waitFor(() => state.aborted);
    expect(state.aborted).toBe(true);
  });

  it("are noticed by a write: a quiet stream writes heartbeat comments while its tool runs, and a cancel aborts the tool", async () => {
    const { worker: disconnecting, state } = hangingWorker();
    const response = await disconnecting.fetch(post("/v1/run", { query: "wait" }), {});
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readUntil(
      reader,
      (sofar) => sofar.includes("event: step-start") && sofar.includes("event: plan-end") && sofar.endsWith("\n\n"),
    );
    // Nothing happens in the run any more: what the client reads next are comments.
    const quiet = await readUntil(reader, (sofar) => sofar.length >= 6);
    expect(quiet).toMatch(/^(:\n\n)+$/u);
    expect(state.aborted).toBe(false);
    await reader.cancel("the write failed");
    await waitFor(() => state.aborted);
    expect(state.aborted).toBe(true);
  });

  it("abort the model stream of a plan that is still being written", async () => {
    const signals: AbortSignal[] = [];
    const slowModel: PlanModel = {
      async *stream(request) {
        if (request.signal !== undefined) signals.push(request.signal);
        yield { type: "text", text: "[" };
        await new Promise<void>((resolve) =>
          request.signal?.addEventListener("abort", () => resolve(), { once: true }),
        );
      },
    };
    const disconnecting = createWorker({
      ...demoWorkerOptions,
      selectModel: () => ({ name: "slow", provider: "demo", model: slowModel }),
    });
    const response = await disconnecting.fetch(post("/v1/plan", { query: "anything" }), {});
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readUntil(reader, (sofar) => sofar.includes("event: model"));
    // The stream pulls the plan only while the client reads.
    const pending = reader.read();
    await waitFor(() => signals.length > 0);
    expect(signals[0]?.aborted).toBe(false);
    await reader.cancel();
    expect((await pending).done).toBe(true);
    await waitFor(() => signals[0]?.aborted === true);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe("secrets", () => {
  const apiKey = "sk-test-0123456789abcdef";
  const token = "plankit-token-ABCDEFGH";

  it("never reach a response, even when an upstream error quotes them", async () => {
    const leaky: SelectedModel = {
      name: "leaky",
      provider: "openai",
      model: {
        async *stream() {
          throw new Error(`401 from upstream: key ${apiKey} rejected, token ${token}, json "${apiKey}"`);
        },
      },
    };
    const tools = new ToolRegistry().register({
      name: "leak",
      description: "Fails quoting the key",
      annotations: { readOnlyHint: true },
      execute: () => {
        throw new Error(`cannot use ${apiKey}`);
      },
    });
    const env: WorkerEnv = { OPENAI_API_KEY: apiKey, PLANKIT_TOKEN: token };
    const auth = { authorization: `Bearer ${token}` };
    const plan = await createWorker({ ...demoWorkerOptions, selectModel: () => leaky }).fetch(
      post("/v1/plan", { query: "x" }, auth),
      env,
    );
    const planText = await plan.text();
    expect(planText).toContain("[redacted]");
    const run = await createWorker(
      forkOptions({
        createTools: () => tools,
        selectModel: () => ({
          name: "fixed",
          provider: "openai",
          model: fixedModel([
            { type: "tool", name: "leak", arguments: {} },
            { type: "reply", text: "{{s1}}" },
          ]),
        }),
      }),
    ).fetch(post("/v1/run", { query: "x" }, auth), env);
    const runText = await run.text();
    expect(runText).toContain("cannot use [redacted]");
    const broken = await createWorker(
      forkOptions({
        createTools: () => {
          throw new Error(`misconfigured with ${apiKey}`);
        },
      }),
    ).fetch(post("/v1/run", { query: "x" }, auth), env);
    expect(broken.status).toBe(500);
    const brokenText = JSON.stringify(await problem(broken));
    for (const text of [planText, runText, brokenText, JSON.stringify([...plan.headers, ...run.headers])]) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(token);
    }
  });

  it("are not part of the model's name, which every API response carries", async () => {
    const env: WorkerEnv = {
      OPENAI_API_KEY: apiKey,
      OPENAI_BASE_URL: "https://user:pass@llm.internal.example/v1",
      PLANKIT_MODEL: "qwen2.5-7b-instruct",
    };
    expect(selectModel(env)).toMatchObject({ name: "qwen2.5-7b-instruct", provider: "openai-compatible" });
    expect(selectModel({ OPENAI_API_KEY: apiKey })).toMatchObject({ name: "gpt-4o-mini", provider: "openai" });
    expect(selectModel({}, selectDemoModel)).toMatchObject({
      name: "plankit-demo (offline, scripted)",
      provider: "demo",
    });
    const response = await worker.fetch(new Request(`${origin}/v1/tools`), env);
    expect(response.headers.get("x-plankit-model")).toBe("qwen2.5-7b-instruct");
    expect(response.headers.get("x-plankit-model-provider")).toBe("openai-compatible");
    const text = JSON.stringify([...response.headers]) + (await response.text());
    for (const secret of [apiKey, "user:pass", "llm.internal.example"]) expect(text).not.toContain(secret);
  });
});

describe("the demo tools in workerd", () => {
  it("run with the Workers runtime's Intl and timers", async () => {
    const tools = createDemoTools({ slowLookupDelayMs: 20, now: () => Date.UTC(2026, 0, 1) });
    expect(await tools.call("current_time", { timeZone: "Europe/Paris" })).toMatchObject({
      local: "Thursday, January 1, 2026 at 01:00",
      offset: "UTC+01:00",
    });
    expect(await tools.call("slow_lookup", { query: "height of Mount Everest" })).toMatchObject({
      value: 8848.86,
      latencyMs: 20,
    });
  });
});

describe("secrets of any length", () => {
  it("are redacted whole wherever they appear, in every response, streamed or not", async () => {
    // The demo model plans; the key is only a secret to keep out.
    const worker = createWorker({ ...demoWorkerOptions, selectModel: () => selectModel(fast, selectDemoModel) });
    const env: WorkerEnv = { ...fast, OPENAI_API_KEY: "Tokyo", PLANKIT_TOKEN: "k1" };
    const auth = { authorization: "Bearer k1" };
    const run = await worker.fetch(
      post("/v1/run", { query: "compare the populations of Tokyo and Paris and compute their ratio" }, auth),
      env,
    );
    const runText = await run.text();
    expect(runText).toContain("[redacted]");
    expect(runText).toContain("Paris");
    expect(runText).not.toContain("Tokyo");
    const completion = await (
      await worker.fetch(
        post(
          "/v1/chat/completions",
          {
            messages: [{ role: "user", content: "compare the populations of Tokyo and Paris and compute their ratio" }],
          },
          auth,
        ),
        env,
      )
    ).text();
    expect(completion).not.toContain("Tokyo");
    expect(completion).toContain("[redacted]");
    const tools = await (await worker.fetch(new Request(`${origin}/v1/tools`, { headers: auth }), env)).text();
    expect(tools).not.toContain("k1");
  });
});

describe("redactBody", () => {
  it("finds secrets split across chunks, sends the rest as it comes, and passes a cancel to the source", async () => {
    const { createRedactor } = await import("../../worker/http/redact-secrets.ts");
    const { redactBody } = await import("../../worker/http/redact-body.ts");
    const redactor = createRedactor(["sk-secret", "ab", undefined, ""]);
    const encoder = new TextEncoder();
    const parts = ["data: sk-se", "cret and a", "b, then sk-", "other\n", "tail sk-sec"];
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
    });
    const reader = redactBody(source, redactor).getReader();
    const decoder = new TextDecoder();
    const seen: string[] = [];
    for (let next = await reader.read(); next.done !== true; next = await reader.read())
      seen.push(decoder.decode(next.value));
    expect(seen.join("")).toBe("data: [redacted] and [redacted], then sk-other\ntail sk-sec");
    expect(seen[0]).toBe("data: ");
    expect(redactor('{"key":"sk-secret"}')).toBe('{"key":"[redacted]"}');
    expect(createRedactor(['a"b'])('{"v":"a\\"b"}')).toBe('{"v":"[redacted]"}');
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoder.encode("x"));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const endlessReader = redactBody(endless, redactor).getReader();
    await endlessReader.read();
    await endlessReader.cancel("gone");
    expect(cancelled).toBe("gone");
  });
});

describe("a client leaving a completion that is not streamed", () => {
  it("aborts the run: the running tool sees its signal fire, and no tool call finishes", async () => {
    const { registry, state } = createHangingTool();
    let finished = 0;
    registry.register({
      name: "count_after",
      description: "Counts the calls that finish",
      annotations: { readOnlyHint: true },
      execute: () => {
        finished++;
        return { ok: true };
      },
    });
    const disconnecting = createWorker(
      forkOptions({
        createTools: () => registry,
        selectModel: () => ({
          name: "fixed",
          provider: "demo",
          model: fixedModel([
            { type: "tool", name: "wait_forever", arguments: {} },
            { type: "tool", name: "count_after", arguments: { after: "{{s1}}" } },
            { type: "reply", text: "{{s2}}" },
          ]),
        }),
      }),
    );
    const client = new AbortController();
    const request = new Request(`${origin}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "wait" }] }),
      signal: client.signal,
    });
    const pending = disconnecting.fetch(request, {});
    await waitFor(() => state.started);
    expect(state.aborted).toBe(false);
    client.abort(new Error("client went away"));
    await waitFor(() => state.aborted);
    const response = await pending;
    expect(state.aborted).toBe(true);
    expect(finished).toBe(0);
    await response.body?.cancel();
  });
});
