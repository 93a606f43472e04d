import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LLMPlanner, type PlanModel, type RuntimeEvent, type ToolDefinition, ToolRegistry } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import type { RunSetup } from "../../worker/runs/create-run-setup.ts";
import type { DurableStep, DurableStepConfig, DurableWaitOptions } from "../../worker/runs/durable-step.ts";
import { durableStepName } from "../../worker/runs/durable-step-name.ts";
import { executeDurableRun } from "../../worker/runs/execute-durable-run.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { createFakePlanner, invariantProblems, reply, tool } from "../runtime/fake-planner.ts";

const bindings = env as unknown as Required<Pick<WorkerEnv, "PLAN_SESSION" | "PLAN_WORKFLOW">>;

/** The engine's error when a wait's time is up. */
class WaitTimeoutError extends Error {
  override name = "WorkflowTimeoutError";
}

/**
 * A stand-in for the Workflows engine: stores each step's outcome and each
 * wait's event (or timeout) by name and occurrence, retries per config,
 * queues events sent before a wait, and can "crash".
 */
class FakeEngine {
  readonly stored = new Map<string, { ok: true; value: unknown } | { ok: false; error: unknown }>();
  readonly calls: { name: string; config: DurableStepConfig }[] = [];
  readonly waits: { name: string; options: DurableWaitOptions }[] = [];
  running = 0;
  maxRunning = 0;
  /** Once this many steps were stored, every later step.do never settles, as if the process died. */
  crashAfter = Number.POSITIVE_INFINITY;
  /** Events sent while no wait was open. */
  readonly #queue: unknown[] = [];
  /** The open wait of the current execution. */
  #waiter: { key: string; resolve: (payload: unknown) => void; reject: (error: unknown) => void } | undefined;
  #generation = 0;

  /** Sends an event: to the open wait, or to the queue. */
  send(payload: unknown): void {
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#queue.push(payload);
      return;
    }
    this.#waiter = undefined;
    this.stored.set(waiter.key, { ok: true, value: payload });
    waiter.resolve(payload);
  }

  /** Ends the open wait with a timeout. */
  timeOut(): void {
    const waiter = this.#waiter;
    if (waiter === undefined) throw new Error("no wait is open");
    this.#waiter = undefined;
    const error = new WaitTimeoutError("Execution timed out after 5000ms");
    this.stored.set(waiter.key, { ok: false, error });
    waiter.reject(error);
  }

  /** Whether the current execution waits for an event. */
  get waiting(): boolean {
    return this.#waiter !== undefined;
  }

  /** The `step` of one execution (occurrence counts start over, as after a restart; the last execution's open wait is dropped). */
  execution(): DurableStep {
    const counts = new Map<string, number>();
    const hang = new Promise<never>(() => undefined);
    const generation = ++this.#generation;
    this.#waiter = undefined;
    const occurrence = (name: string): string => {
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      return `${name}/${count}`;
    };
    return {
      waitForEvent: async (name: string, options: DurableWaitOptions): Promise<unknown> => {
        const key = `wait:${occurrence(name)}`;
        const hit = this.stored.get(key);
        if (hit !== undefined) {
          if (hit.ok) return hit.value;
          throw hit.error;
        }
        if (generation !== this.#generation) return hang;
        this.waits.push({ name, options });
        if (this.#queue.length > 0) {
          const payload = this.#queue.shift();
          this.stored.set(key, { ok: true, value: payload });
          return payload;
        }
        return new Promise((resolve, reject) => {
          this.#waiter = { key, resolve, reject };
        });
      },
      do: async <T>(
        name: string,
        config: DurableStepConfig,
        callback: (context: { attempt: number }) => Promise<T>,
      ): Promise<T> => {
        const key = occurrence(name);
        const hit = this.stored.get(key);
        if (hit !== undefined) {
          if (hit.ok) return hit.value as T;
          throw hit.error;
        }
        if (this.stored.size >= this.crashAfter || generation !== this.#generation) return hang;
        this.calls.push({ name, config });
        for (let attempt = 1; ; attempt++) {
          this.running++;
          this.maxRunning = Math.max(this.maxRunning, this.running);
          try {
            const value = await callback({ attempt });
            if (this.stored.size >= this.crashAfter) return hang;
            this.stored.set(key, { ok: true, value });
            return value;
          } catch (error) {
            if (attempt > (config.retries?.limit ?? 0)) {
              this.stored.set(key, { ok: false, error });
              throw error;
            }
          } finally {
            this.running--;
          }
        }
      },
    };
  }
}

/** Resolves once `check` holds (polling), or fails after two seconds. */
async function until(check: () => boolean): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 2000) throw new Error("not reached within 2 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A model that plans `plan` and counts its calls. */
function planningModel(plan: unknown[]): PlanModel & { calls: () => number } {
  let calls = 0;
  const model = createScriptedModel({
    responses: () => {
      calls++;
      return JSON.stringify(plan);
    },
  });
  return { stream: (request) => model.stream(request), calls: () => calls };
}

/** Tools that count their calls: `lookup` (read-only, 20 ms), `flaky` (read-only, fails its first `failures` calls), `send` (side effects). */
function createTools(failures = 0): { registry: ToolRegistry; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const count = (name: string): number => {
    const next = (calls.get(name) ?? 0) + 1;
    calls.set(name, next);
    return next;
  };
  const tools: ToolDefinition[] = [
    {
      name: "lookup",
      description: "Look a thing up",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      annotations: { readOnlyHint: true },
      execute: async ({ q }) => {
        count("lookup");
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { value: `${String(q)}!` };
      },
    },
    {
      name: "flaky",
      description: "Fails at first",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      annotations: { readOnlyHint: true },
      execute: ({ q }) => {
        if (count("flaky") <= failures) throw new Error("the service is busy");
        return { value: `${String(q)}?` };
      },
    },
    {
      name: "send",
      description: "Send a message",
      inputSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
      execute: ({ to }) => {
        count("send");
        return { sent: to };
      },
    },
  ];
  return { registry: new ToolRegistry().register(tools), calls };
}

function setupOf(registry: ToolRegistry, model: PlanModel): RunSetup {
  return {
    registry,
    planner: new LLMPlanner({ model }),
    model,
    selected: { model, name: "scripted", provider: "test" },
  };
}

async function openSession(name: string, runId: string) {
  const session = bindings.PLAN_SESSION.get(bindings.PLAN_SESSION.idFromName(name));
  await session.startRun({ runId, mode: "durable", query: "q", model: { name: "scripted", provider: "test" } });
  return session;
}

/** The run's logged runtime events, read through the session's SSE endpoint. */
async function loggedEvents(session: DurableObjectStub, runId: string): Promise<RuntimeEvent[]> {
  const response = await session.fetch(`https://plan-session/events?run=${runId}`);
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("id: "))
    .map((block) => JSON.parse(block.split("\n")[2]?.slice(6) ?? "null") as RuntimeEvent & { type: string })
    .filter((event) => event.type !== ("model" as string));
}

/** The run's logged runtime events up to the first of `type`, for a run that has not ended (its stream stays open). */
async function loggedEventsUntil(
  session: DurableObjectStub,
  runId: string,
  type: RuntimeEvent["type"],
): Promise<RuntimeEvent[]> {
  const response = await session.fetch(`https://plan-session/events?run=${runId}`);
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const events = (): RuntimeEvent[] =>
    text
      .split("\n\n")
      .filter((block) => block.startsWith("id: ") && block.includes("\ndata: "))
      .map((block) => JSON.parse(block.split("\n")[2]?.slice(6) ?? "null") as RuntimeEvent & { type: string })
      .filter((event) => event.type !== ("model" as string));
  while (!events().some((event) => event.type === type)) {
    const chunk = await reader.read();
    if (chunk.done === true) break;
    text += chunk.value;
  }
  await reader.cancel();
  return events();
}

function trail(events: readonly RuntimeEvent[], stepId: string): string[] {
  return events
    .filter((event) => "stepId" in event && event.stepId === stepId)
    .map(
      (event) =>
        `${event.type}${event.type === "step-error" && event.final ? "!" : ""}@${"attempt" in event ? event.attempt : ""}`,
    );
}

const parallelPlan = [
  { id: "a", type: "tool", name: "lookup", arguments: { q: "one" } },
  { id: "b", type: "tool", name: "lookup", arguments: { q: "two" } },
  { id: "c", type: "tool", name: "flaky", arguments: { q: "{{a.value}} {{b.value}}" }, retries: 2, timeoutMs: 5000 },
  { id: "r", type: "reply", text: "{{c.value}}" },
];

describe("executeDurableRun with a stand-in engine and the real session object", () => {
  it("waits for approval in step.waitForEvent, survives a crash while waiting, refuses a stale event, and runs the step as approved", async () => {
    const engine = new FakeEngine();
    const model = planningModel([
      { id: "s1", type: "tool", name: "lookup", arguments: { q: "x" } },
      { id: "s2", type: "tool", name: "send", arguments: { to: "{{s1.value}}" } },
      { id: "s3", type: "reply", text: "sent to {{s2.sent}}" },
    ]);
    const { registry, calls } = createTools();
    const runId = "run-approval";
    const session = await openSession("unit-approval", runId);
    const setup: RunSetup = {
      ...setupOf(registry, model),
      policy: { send: { approval: "plan" } },
      approvalTimeoutMs: 3_600_000,
    };
    const params = { runId, session: "unit-approval", query: "go" };
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.waiting);
    expect(engine.waits).toEqual([{ name: "approval", options: { type: "approval", timeoutMs: 3_600_000 } }]);
    const before = await loggedEventsUntil(session, runId, "approval-request");
    expect(before.find((event) => event.type === "approval-request")).toMatchObject({
      steps: [
        {
          stepId: "s2",
          tool: "send",
          arguments: { to: "{{s1.value}}" },
          waiting: [{ pointer: "/to", reference: "{{s1.value}}" }],
        },
      ],
      timeoutMs: 3_600_000,
    });
    expect(trail(before, "s2")).toEqual([]);

    // The execution dies while it waits; the next one replays the run from the stored steps to the same wait.
    const resumed = executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.waiting);
    expect(Object.fromEntries(calls)).toEqual({ lookup: 1 });
    expect(model.calls()).toBe(1);
    // A decision the run refuses (no such step) changes nothing: it waits again.
    engine.send({ decisions: [{ stepId: "s9", approved: true }] });
    await until(() => engine.waiting);
    engine.send({ decisions: [{ stepId: "s2", approved: true, arguments: { to: "bob" } }] });
    expect(await resumed).toEqual({ runId, reason: "completed", reply: "sent to bob" });
    expect(Object.fromEntries(calls)).toEqual({ lookup: 1, send: 1 });
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.filter((event) => event.type === "approval-request")).toHaveLength(1);
    expect(events.filter((event) => event.type === "approval-decision")).toMatchObject([
      { stepId: "s2", approved: true, by: "caller", arguments: { to: "bob" } },
    ]);
    expect(events.find((event) => event.type === "step-start" && event.stepId === "s2")).toMatchObject({
      input: { to: "bob" },
    });
    expect(engine.waits.map((wait) => wait.name)).toEqual(["approval", "approval", "approval"]);
  });

  it("denies the waiting steps when the wait times out, also when a replay meets the stored timeout", async () => {
    const engine = new FakeEngine();
    const model = planningModel([
      { id: "s1", type: "tool", name: "send", arguments: { to: "ann" } },
      { id: "s2", type: "tool", name: "lookup", arguments: { q: "{{s1.sent}}" } },
      { id: "s3", type: "reply", text: "done" },
    ]);
    const { registry, calls } = createTools();
    const runId = "run-approval-timeout";
    const session = await openSession("unit-approval", runId);
    const setup: RunSetup = {
      ...setupOf(registry, model),
      policy: { send: { approval: "plan" } },
      approvalTimeoutMs: 5000,
    };
    const params = { runId, session: "unit-approval", query: "go" };
    const createdAt = Date.now();
    const first = executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.waiting);
    engine.timeOut();
    // Steps no one approved in time are an answer, not a failure: the run completes, as a run in memory does.
    expect(await first).toMatchObject({ runId, reason: "completed" });
    // A replay of the whole run gets the stored timeout at once and ends the same way.
    expect(await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt })).toMatchObject({
      runId,
      reason: "completed",
    });
    expect(calls.get("send")).toBeUndefined();
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.filter((event) => event.type === "approval-decision")).toMatchObject([
      { stepId: "s1", approved: false, by: "timeout", reason: "No decision within 5000 ms" },
    ]);
    expect(events.find((event) => event.type === "step-skipped" && event.stepId === "s1")).toMatchObject({
      code: "denied",
    });
    expect(events.find((event) => event.type === "step-skipped" && event.stepId === "s2")).toMatchObject({
      code: "dependency-failed",
    });
  });

  it("plans in one step, runs each plan step in one step.do named by id and input hash, parallel where independent", async () => {
    const engine = new FakeEngine();
    const model = planningModel(parallelPlan);
    const { registry } = createTools(1);
    const runId = "run-parallel";
    const session = await openSession("unit-parallel", runId);
    const result = await executeDurableRun({
      params: { runId, session: "unit-parallel", query: "go" },
      step: engine.execution(),
      session,
      setup: setupOf(registry, model),
      createdAt: Date.now(),
    });

    expect(result).toEqual({ runId, reason: "completed", reply: "one! two!?" });
    expect(engine.calls.map((call) => call.name)).toEqual([
      "plan",
      await durableStepName("a", { q: "one" }),
      await durableStepName("b", { q: "two" }),
      await durableStepName("c", { q: "one! two!" }),
    ]);
    expect(engine.calls[1]?.name).toMatch(/^a#[0-9a-f]{12}$/);
    expect(engine.calls[3]?.config).toEqual({
      retries: { limit: 2, delay: 100, backoff: "exponential" },
      timeout: 6000,
    });
    expect(engine.maxRunning).toBe(2);
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    // The flaky step failed once and the engine retried it: both attempts are in the log, with the engine's delay.
    expect(trail(events, "c")).toEqual(["step-start@1", "step-error@1", "step-retry@2", "step-start@2", "step-end@2"]);
    expect(events.find((event) => event.type === "step-retry")).toMatchObject({ delayMs: 100, cause: "policy" });
    expect(model.calls()).toBe(1);
  });

  it("resumes after a crash from the stored steps: no second plan, no second tool call, no duplicate event", async () => {
    const engine = new FakeEngine();
    const model = planningModel([
      { id: "s1", type: "tool", name: "lookup", arguments: { q: "x" } },
      { id: "s2", type: "tool", name: "send", arguments: { to: "{{s1.value}}" } },
      { id: "s3", type: "reply", text: "sent to {{s2.sent}}" },
    ]);
    const { registry, calls } = createTools();
    const runId = "run-crash";
    const session = await openSession("unit-crash", runId);
    const params = { runId, session: "unit-crash", query: "go" };
    engine.crashAfter = 2;
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup: setupOf(registry, model), createdAt });
    for (let waited = 0; engine.stored.size < 2 && waited < 2000; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await session.summary(runId);
    expect(before).toMatchObject({
      ended: false,
      steps: [
        { id: "s1", status: "succeeded" },
        { id: "s2", status: "planned" },
        { id: "s3", status: "planned" },
      ],
    });

    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({
      params,
      step: engine.execution(),
      session,
      setup: setupOf(registry, model),
      createdAt,
    });
    expect(result.reason).toBe("completed");
    expect(model.calls()).toBe(1);
    expect(Object.fromEntries(calls)).toEqual({ lookup: 1, send: 1 });
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.filter((event) => event.type === "plan-start")).toHaveLength(1);
    expect(trail(events, "s1")).toEqual(["step-start@1", "step-end@1"]);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    const after = await session.summary(runId);
    // The second execution sent plan-start, step-planned ×3, plan-end and s1's step-end again; the log kept none of them.
    expect(after?.replayedEvents).toBe(6);
    expect(after?.reply).toBe("sent to x!");
  });

  it("stores a failure no retry fixes: the replay gets it without calling the tool, dependents are skipped once", async () => {
    const engine = new FakeEngine();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "flaky", { q: "x" }, { retries: 1 }),
        tool("s2", "lookup", { q: "{{s1.value}}" }),
        reply("s3", "{{s2.value}}"),
      ],
    });
    const { registry, calls } = createTools(5);
    const runId = "run-failure";
    const session = await openSession("unit-failure", runId);
    const params = { runId, session: "unit-failure", query: "go" };
    const setup: RunSetup = {
      registry,
      planner,
      model: planningModel([]),
      selected: { model: planningModel([]), name: "scripted", provider: "test" },
    };
    const createdAt = Date.now();
    const first = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(first.reason).toBe("failed");
    expect(calls.get("flaky")).toBe(2);
    // The re-plan is a durable step too.
    expect(engine.calls.map((call) => call.name)).toContain("replan-1");
    expect(planner.log.replans).toHaveLength(1);

    const again = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(again.reason).toBe("failed");
    expect(calls.get("flaky")).toBe(2);
    expect(planner.log.requests).toHaveLength(1);
    expect(planner.log.replans).toHaveLength(1);
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(trail(events, "s1")).toEqual([
      "step-start@1",
      "step-error@1",
      "step-retry@2",
      "step-start@2",
      "step-error!@2",
    ]);
    expect(trail(events, "s2")).toEqual(["step-skipped@"]);
  });
});
