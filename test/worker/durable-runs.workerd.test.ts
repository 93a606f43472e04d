import { evictDurableObject, introspectWorkflow, runDurableObjectAlarm, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MemoryEntry } from "../../src/runtime.ts";
import { createWorker } from "../../worker/create-worker.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import { durableStepName } from "../../worker/runs/durable-step-name.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { invariantProblems } from "../runtime/fake-planner.ts";
import { readMessages, runtimeEvents } from "./read-messages.ts";

const origin = "https://plankit.test";
const bindings = env as unknown as Required<Pick<WorkerEnv, "PLAN_SESSION" | "PLAN_WORKFLOW">>;
/** Two archive lookups in parallel (about 1.5 s each), a calculation over both, a reply. */
const slowQuery = "Compare the populations of Tokyo and Paris with a deep archive lookup";

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function startRun(body: Record<string, unknown>): Promise<string> {
  const response = await SELF.fetch(post("/v1/runs", body));
  expect(response.status).toBe(202);
  const created = (await response.json()) as { id: string; links: { events: string } };
  expect(response.headers.get("location")).toBe(`/v1/runs/${created.id}`);
  expect(created.links.events).toBe(`/v1/runs/${created.id}/events`);
  return created.id;
}

function events(id: string, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(new Request(`${origin}/v1/runs/${id}/events`, { headers }));
}

async function status(id: string): Promise<{
  durable: boolean;
  workflow?: { status: string };
  run: {
    ended: boolean;
    reason?: string;
    reply?: string;
    replayedEvents: number;
    events: number;
    steps: { id: string; status: string }[];
  };
}> {
  const response = await SELF.fetch(`${origin}/v1/runs/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Awaited<ReturnType<typeof status>>;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("durable runs: POST /v1/runs with a Workflow", () => {
  it("plans once, runs independent steps at once, and a client that reconnects with Last-Event-ID gets every later event exactly once", async () => {
    const id = await startRun({ query: slowQuery, durable: true });
    const firstPart = await readMessages(await events(id), (message) => message.event === "step-start");
    const lastSeen = firstPart.at(-1)?.id ?? 0;
    const rest = await readMessages(await events(id, { "last-event-id": String(lastSeen) }));
    const joined = [...firstPart, ...rest];
    expect(joined.map((message) => message.id)).toEqual(joined.map((_, index) => index + 1));
    expect(joined[0]?.event).toBe("model");
    expect(joined.at(-1)?.data).toMatchObject({ type: "run-end", reason: "completed" });
    const log = runtimeEvents(joined);
    expect(invariantProblems(log)).toEqual([]);
    expect(log.filter((event) => event.type === "plan-start")).toHaveLength(1);
    // Both archive lookups started before either ended; the calculation got both results.
    const order = log
      .filter(
        (event) =>
          (event.type === "step-start" || event.type === "step-end") &&
          (event.stepId === "s1" || event.stepId === "s2"),
      )
      .map((event) => event.type);
    expect(order).toEqual(["step-start", "step-start", "step-end", "step-end"]);
    expect(log.find((event) => event.type === "step-start" && event.stepId === "s3")).toMatchObject({
      input: { expr: expect.stringMatching(/^round\(\d+ \/ \d+, 2\)$/) },
    });
    expect(log.find((event) => event.type === "reply")).toMatchObject({
      text: expect.stringContaining("times that of Paris"),
    });

    // A whole read and a read from the middle (`?after=`) agree with the joined one.
    const whole = await readMessages(await events(id));
    expect(whole).toEqual(joined);
    const tail = await readMessages(await SELF.fetch(`${origin}/v1/runs/${id}/events?after=${joined.length - 2}`));
    expect(tail).toEqual(joined.slice(-2));

    const report = await status(id);
    expect(report).toMatchObject({
      durable: true,
      workflow: { status: "complete" },
      run: { ended: true, reason: "completed", events: joined.length, replayedEvents: 0 },
    });
    expect(report.run.steps.map((step) => step.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
  }, 30_000);

  it("starts the read-only lookups while the plan streams, and a pause mid-plan resumes to the same end", async () => {
    const id = await startRun({ query: slowQuery, durable: true });
    // The first lookup starts while the model still writes the plan: plan-end is not in the log yet.
    const early = runtimeEvents(await readMessages(await events(id), (message) => message.event === "step-start"));
    expect(early.some((event) => event.type === "plan-end")).toBe(false);
    const instance = await bindings.PLAN_WORKFLOW.get(id);
    await instance.pause();
    await waitFor(async () => (await instance.status()).status === "paused");
    await instance.resume();
    const log = runtimeEvents(await readMessages(await events(id)));
    expect(invariantProblems(log)).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(log.filter((event) => event.type === "plan-start")).toHaveLength(1);
    expect(log.filter((event) => event.type === "plan-end")).toHaveLength(1);
    const types = log.map((event) => event.type);
    expect(types.indexOf("step-start")).toBeLessThan(types.indexOf("plan-end"));
    // Each step planned and ended once, though the plan step ran again after the pause.
    const planned = log.flatMap((event) => (event.type === "step-planned" ? [event.step.id] : []));
    expect(planned.sort()).toEqual(["s1", "s2", "s3", "s4"]);
    const ended = log.flatMap((event) => (event.type === "step-end" ? [event.stepId] : []));
    expect(ended.sort()).toEqual(["s1", "s2", "s3", "s4"]);
    expect(log.find((event) => event.type === "reply")).toMatchObject({
      text: expect.stringContaining("times that of Paris"),
    });
    expect((await status(id)).workflow?.status).toBe("complete");
  }, 30_000);

  it("retries a step that fails in the engine, then succeeds", async () => {
    const introspector = await introspectWorkflow(bindings.PLAN_WORKFLOW);
    try {
      const name = await durableStepName("s1", { expr: "21*2+5" });
      await introspector.modifyAll(async (modifier) => {
        await modifier.disableRetryDelays();
        await modifier.mockStepError({ name }, new Error("the calculator is warming up"), 1);
      });
      const id = await startRun({ query: "What is 21*2+5?" });
      const [instance] = await introspector.get();
      await instance?.waitForStatus("complete");
      expect(await instance?.waitForStepResult({ name })).toEqual({
        ok: true,
        value: { expr: "21*2+5", value: 47 },
        attempts: 2,
        cached: false,
      });
      const log = runtimeEvents(await readMessages(await events(id)));
      expect(invariantProblems(log)).toEqual([]);
      // Attempt 1 failed inside the engine; the runtime ran attempt 2, numbered as the engine numbers it.
      expect(
        log
          .filter((event) => "stepId" in event && event.stepId === "s1")
          .map((event) => `${event.type}@${"attempt" in event ? event.attempt : ""}`),
      ).toEqual(["step-start@2", "step-end@2"]);
      expect(log.find((event) => event.type === "reply")).toMatchObject({ text: "21*2+5 = 47." });
    } finally {
      await introspector.dispose();
    }
  }, 30_000);

  it("asks the model to reflect on a step the engine gave up on, inside a step of its own, and stores the run's start", async () => {
    const introspector = await introspectWorkflow(bindings.PLAN_WORKFLOW);
    try {
      const name = await durableStepName("s1", { expr: "21*2+5" });
      await introspector.modifyAll(async (modifier) => {
        await modifier.disableRetryDelays();
        await modifier.mockStepError({ name }, new Error("the calculator is down"), 5);
      });
      const id = await startRun({ query: "What is 21*2+5?" });
      const [instance] = await introspector.get();
      await instance?.waitForStatus("complete");
      expect(typeof (await instance?.waitForStepResult({ name: "started-at" }))).toBe("number");
      const reflection = (await instance?.waitForStepResult({ name: "model:reflect:s1:1" })) as {
        parts: { type: string }[];
      };
      expect(reflection.parts.at(-1)).toMatchObject({ type: "finish" });
      const log = runtimeEvents(await readMessages(await events(id)));
      expect(invariantProblems(log)).toEqual([]);
      expect(log.find((event) => event.type === "step-error" && event.final)).toMatchObject({
        stepId: "s1",
        error: { message: expect.stringContaining("the calculator is down") },
      });
      expect(log.filter((event) => event.type === "reflection")).toMatchObject([{ stepId: "s1" }]);
    } finally {
      await introspector.dispose();
    }
  }, 30_000);

  for (const [point, pauseAfter, cut] of [
    ["during reflection", "plan-end", "reflection"],
    ["during a re-plan", "step-error", "replan"],
  ] as const) {
    it(`survives a pause ${point}: the resumed run ends as the uninterrupted one, each event once`, async () => {
      const introspector = await introspectWorkflow(bindings.PLAN_WORKFLOW);
      try {
        const name = await durableStepName("s1", { expr: "21*2+5" });
        await introspector.modifyAll(async (modifier) => {
          await modifier.disableRetryDelays();
          await modifier.mockStepError({ name }, new Error("the calculator is down"), 5);
        });
        // Uninterrupted: the step fails for good, the model reflects (about 0.5 s), then re-plans (about 0.9 s).
        const reference = runtimeEvents(await readMessages(await events(await startRun({ query: "What is 21*2+5?" }))));
        expect(reference.filter((event) => event.type === "reflection")).toHaveLength(1);
        expect(reference.filter((event) => event.type === "replan")).toHaveLength(1);

        const id = await startRun({ query: "What is 21*2+5?" });
        await readMessages(
          await events(id),
          (message) => message.event === pauseAfter && (pauseAfter !== "step-error" || message.data["final"] === true),
        );
        const instance = await bindings.PLAN_WORKFLOW.get(id);
        await instance.pause();
        await waitFor(async () => (await instance.status()).status === "paused");
        // The pause came before the model call's outcome was logged.
        const paused = (await status(id)).run.events;
        await instance.resume();
        const log = runtimeEvents(await readMessages(await events(id)));
        expect(log.findIndex((event) => event.type === cut)).toBeGreaterThanOrEqual(paused - 1);
        expect(invariantProblems(log)).toEqual([]);
        const shape = (list: typeof log) =>
          list
            .filter((event) => event.type !== "reply-delta")
            .map((event) => `${event.type}:${"stepId" in event ? event.stepId : ""}`);
        expect(shape(log)).toEqual(shape(reference));
        const reply = (list: typeof log) => {
          const found = list.find((event) => event.type === "reply");
          return found?.type === "reply" ? { text: found.text, source: found.source, stepId: found.stepId } : undefined;
        };
        expect(reply(log)).toEqual(reply(reference));
        expect(log.at(-1)).toMatchObject({ type: "run-end", reason: (reference.at(-1) as { reason?: string }).reason });
        expect((await status(id)).workflow?.status).toBe("complete");
      } finally {
        await introspector.dispose();
      }
    }, 30_000);
  }

  it("cancels a run: the instance is terminated and the log ends with run-end aborted", async () => {
    const id = await startRun({ query: slowQuery });
    // Both lookups started (the second may start while the plan still streams).
    let started = 0;
    await readMessages(await events(id), (message) => message.event === "step-start" && ++started === 2);
    const cancelled = await SELF.fetch(post(`/v1/runs/${id}/cancel`, {}));
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ id, cancelled: true, run: { ended: true, reason: "aborted" } });
    const log = runtimeEvents(await readMessages(await events(id)));
    expect(invariantProblems(log)).toEqual([]);
    expect(log.at(-1)).toMatchObject({
      type: "run-end",
      reason: "aborted",
      error: { code: "aborted", message: "The run was cancelled" },
    });
    expect(
      log
        .filter((event) => event.type === "step-error" && event.final)
        .map((event) => (event as { error: { code: string } }).error.code),
    ).toEqual(["aborted", "aborted"]);
    // The steps planned by then (the plan may still have been streaming) and not started are skipped.
    const planned = log.flatMap((event) => (event.type === "step-planned" ? [event.step.id] : []));
    expect(
      log.filter((event) => event.type === "step-skipped").map((event) => (event as { stepId: string }).stepId),
    ).toEqual(planned.filter((stepId) => stepId !== "s1" && stepId !== "s2"));
    await waitFor(async () => (await status(id)).workflow?.status === "terminated");
    // Nothing the instance still had in flight reaches the closed log.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(runtimeEvents(await readMessages(await events(id)))).toEqual(log);

    const again = await SELF.fetch(post(`/v1/runs/${id}/cancel`, {}));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "run-ended", reason: "aborted" });
  }, 30_000);

  it("survives a pause and resume of its instance: the replay re-sends events the log already has, and none is duplicated", async () => {
    const id = await startRun({ query: slowQuery });
    await readMessages(await events(id), (message) => message.event === "step-start");
    const instance = await bindings.PLAN_WORKFLOW.get(id);
    await instance.pause();
    await waitFor(async () => (await instance.status()).status === "paused");
    await instance.resume();
    const log = runtimeEvents(await readMessages(await events(id)));
    expect(invariantProblems(log)).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(log.filter((event) => event.type === "plan-start")).toHaveLength(1);
    const report = await status(id);
    expect(report.workflow?.status).toBe("complete");
    expect(report.run.replayedEvents).toBeGreaterThan(0);
  }, 30_000);
});

describe("session runs: POST /v1/runs with durable: false", () => {
  it("runs in the session object with the same resumable log, and shares the session's memory", async () => {
    const first = await startRun({ query: "Convert 10 miles to kilometers", durable: false, session: "memory-test" });
    expect(first).toMatch(/^run-[0-9a-f]{32}-memory-test$/);
    const firstPart = await readMessages(await events(first), (message) => message.event === "plan-end");
    const rest = await readMessages(await events(first, { "last-event-id": String(firstPart.at(-1)?.id) }));
    const joined = [...firstPart, ...rest];
    expect(joined.map((message) => message.id)).toEqual(joined.map((_, index) => index + 1));
    expect(invariantProblems(runtimeEvents(joined))).toEqual([]);
    expect(joined.at(-1)?.data).toMatchObject({ type: "run-end", reason: "completed" });
    expect(await status(first)).toMatchObject({
      durable: false,
      run: { ended: true, reply: expect.stringContaining("16.09") },
    });

    // A durable run in the same session reads the memory the first wrote and adds its own, once.
    const session = bindings.PLAN_SESSION.get(bindings.PLAN_SESSION.idFromName("memory-test"));
    // The RPC types cannot express MemoryEntry's `content: unknown`.
    const readMemory = async (query: string): Promise<MemoryEntry[]> =>
      (await session.readMemory(query)) as unknown as MemoryEntry[];
    expect((await readMemory("miles to kilometers")).map((entry) => [entry.kind, entry.runId])).toEqual([
      ["result", first],
    ]);
    const second = await startRun({ query: "Convert 26 miles to kilometers", session: "memory-test" });
    const planned = runtimeEvents(await readMessages(await events(second)));
    expect(planned.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect((await readMemory("miles to kilometers")).map((entry) => entry.runId)).toEqual([second, first]);
  }, 30_000);

  it("cancels a session run through the runtime, and closes a run the object lost when it restarted", async () => {
    const cancelled = await startRun({ query: slowQuery, durable: false });
    await readMessages(await events(cancelled), (message) => message.event === "step-start");
    expect((await SELF.fetch(post(`/v1/runs/${cancelled}/cancel`, {}))).status).toBe(200);
    const log = runtimeEvents(await readMessages(await events(cancelled)));
    expect(invariantProblems(log)).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: "run-end", reason: "aborted" });

    const lost = await startRun({ query: slowQuery, durable: false, session: "restarting" });
    await readMessages(await events(lost), (message) => message.event === "step-start");
    const session = bindings.PLAN_SESSION.get(bindings.PLAN_SESSION.idFromName("restarting"));
    await evictDurableObject(session);
    expect(await runDurableObjectAlarm(session)).toBe(true);
    const closed = runtimeEvents(await readMessages(await events(lost)));
    expect(invariantProblems(closed)).toEqual([]);
    expect(closed.at(-1)).toMatchObject({
      type: "run-end",
      reason: "failed",
      error: { code: "aborted", message: expect.stringContaining("restarted") },
    });
  }, 30_000);
});

describe("the /v1/runs routes", () => {
  it("answer problems for unknown runs, bad cursors and bodies, and without the bindings", async () => {
    for (const path of [
      "/v1/runs/run-00000000000000000000000000000000",
      "/v1/runs/not-a-run-id/events",
      "/v1/runs/run-00000000000000000000000000000000/events",
    ]) {
      const response = await SELF.fetch(`${origin}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "unknown-run" });
    }
    expect((await SELF.fetch(post("/v1/runs/run-00000000000000000000000000000000/cancel", {}))).status).toBe(404);
    const id = await startRun({ query: "What is 21*2+5?", durable: false });
    const badCursor = await events(id, { "last-event-id": "seven" });
    expect(badCursor.status).toBe(400);
    expect(await badCursor.json()).toMatchObject({
      code: "invalid-last-event-id",
      detail: expect.stringMatching(/^Last-Event-ID must/u),
    });
    // A cursor in the query is named as the query's.
    const badAfter = await SELF.fetch(`${origin}/v1/runs/${id}/events?after=-1`);
    expect(badAfter.status).toBe(400);
    expect(await badAfter.json()).toMatchObject({ detail: expect.stringMatching(/^The after parameter must/u) });
    const badBody = await SELF.fetch(post("/v1/runs", { query: "x", durable: "yes", session: "no spaces" }));
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toEqual([
      "#/durable",
      "#/session",
    ]);
    expect((await SELF.fetch(new Request(`${origin}/v1/runs/${id}`, { method: "DELETE" }))).status).toBe(405);

    const unbound = await createWorker(demoWorkerOptions).fetch(post("/v1/runs", { query: "x" }), {});
    expect(unbound.status).toBe(501);
    expect(await unbound.json()).toMatchObject({ code: "not-configured" });
  });

  it("keep the token, CORS and preflight rules of the other routes", async () => {
    const worker = createWorker(demoWorkerOptions);
    const guarded = {
      ...(env as unknown as WorkerEnv),
      PLANKIT_TOKEN: "correct-horse-battery",
      PLANKIT_CORS_ORIGINS: "https://app.example.com",
    };
    expect((await worker.fetch(post("/v1/runs", { query: "x" }), guarded)).status).toBe(401);
    expect(
      (await worker.fetch(new Request(`${origin}/v1/runs/run-00000000000000000000000000000000/events`), guarded))
        .status,
    ).toBe(401);
    const preflight = await worker.fetch(
      new Request(`${origin}/v1/runs/run-00000000000000000000000000000000/events`, {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-headers": "last-event-id" },
      }),
      guarded,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("last-event-id");
    expect(
      (
        await worker.fetch(
          post(
            "/v1/runs",
            { query: "x" },
            { origin: "https://evil.example", authorization: "Bearer correct-horse-battery" },
          ),
          guarded,
        )
      ).status,
    ).toBe(403);
    const created = await worker.fetch(
      post(
        "/v1/runs",
        { query: "What is 21*2+5?", durable: false },
        { origin: "https://app.example.com", authorization: "Bearer correct-horse-battery" },
      ),
      guarded,
    );
    expect(created.status).toBe(202);
    expect(created.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const { id } = (await created.json()) as { id: string };
    const stream = await worker.fetch(
      new Request(`${origin}/v1/runs/${id}/events`, { headers: { authorization: "Bearer correct-horse-battery" } }),
      guarded,
    );
    expect((await readMessages(stream)).at(-1)?.event).toBe("run-end");
  });
});

describe("the end of a run's event stream", () => {
  it("answers a resume at or past the last event of an ended run with 204, which stops an EventSource; before that, the rest", async () => {
    const id = await startRun({ query: "What is 21*2+5?", durable: false, session: "ending-test" });
    const response = await events(id);
    expect(await response.clone().text()).toMatch(/^retry: \d+\n\n/u);
    const all = await readMessages(response);
    const last = all.at(-1);
    expect(last?.event).toBe("run-end");
    for (const cursor of [String(last?.id), String((last?.id ?? 0) + 5)]) {
      const ended = await events(id, { "last-event-id": cursor });
      expect(ended.status).toBe(204);
      expect(ended.body).toBeNull();
      expect(ended.headers.get("x-plankit-run-id")).toBe(id);
      expect((await SELF.fetch(`${origin}/v1/runs/${id}/events?after=${cursor}`)).status).toBe(204);
    }
    const before = await events(id, { "last-event-id": String((last?.id ?? 1) - 1) });
    expect(before.status).toBe(200);
    expect((await readMessages(before)).map((message) => message.event)).toEqual(["run-end"]);
  });

  it("keeps the stream open for a resume at the last event of a run that has not ended", async () => {
    const id = await startRun({ query: slowQuery, durable: false, session: "open-test" });
    const first = await readMessages(await events(id), (message) => message.event === "model");
    const resumed = await events(id, { "last-event-id": String(first.at(-1)?.id) });
    expect(resumed.status).toBe(200);
    const rest = await readMessages(resumed);
    expect(rest.at(-1)?.event).toBe("run-end");
  }, 30_000);
});

describe("secrets in the run routes", () => {
  it("are redacted from the status and the event log of a run, however short", async () => {
    const worker = createWorker(demoWorkerOptions);
    // Redaction ignores case, so a token "tok" would take the "Tok" of "Tokyo" too: this one is short and occurs nowhere.
    const secretEnv = { ...(env as unknown as WorkerEnv), OPENAI_API_KEY: "Paris", PLANKIT_TOKEN: "t~k" };
    const auth = { authorization: "Bearer t~k" };
    const created = await worker.fetch(
      post(
        "/v1/runs",
        {
          query: "compare the populations of Tokyo and Paris and compute their ratio",
          durable: false,
          session: "secret-test",
        },
        auth,
      ),
      secretEnv,
    );
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    const log = await (
      await worker.fetch(new Request(`${origin}/v1/runs/${id}/events`, { headers: auth }), secretEnv)
    ).text();
    expect(log).toContain("run-end");
    const status = await (
      await worker.fetch(new Request(`${origin}/v1/runs/${id}`, { headers: auth }), secretEnv)
    ).text();
    expect(status).toContain('"ended":true');
    for (const text of [log, status]) {
      expect(text).toContain("[redacted]");
      expect(text).not.toContain("Paris");
    }
    expect(status).toContain("Tokyo");
  }, 30_000);
});
