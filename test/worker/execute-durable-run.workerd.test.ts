import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LLMPlanner, ToolRegistry, type PlanModel, type RuntimeEvent, type ToolDefinition } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import type { DurableStepConfig } from "../../worker/durable/durable-step.ts";
import type { RunSetup } from "../../worker/durable/create-run-setup.ts";
import type { DurableStep } from "../../worker/durable/durable-step.ts";
import { durableStepName } from "../../worker/durable/durable-step-name.ts";
import { executeDurableRun } from "../../worker/durable/execute-durable-run.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { createFakePlanner, invariantProblems, reply, tool } from "../runtime/fake-planner.ts";

const bindings = env as unknown as Required<Pick<WorkerEnv, "PLAN_SESSION" | "PLAN_WORKFLOW">>;

/** A stand-in for the Workflows engine: stores each step's outcome by name and occurrence, retries per config, and can "crash". */
class FakeEngine {
  readonly stored = new Map<string, { ok: true; value: unknown } | { ok: false; error: unknown }>();
  readonly calls: { name: string; config: DurableStepConfig }[] = [];
  running = 0;
  maxRunning = 0;
  /** Once this many steps were stored, every later step.do never settles, as if the process died. */
  crashAfter = Number.POSITIVE_INFINITY;

  /** The `step` of one execution (occurrence counts start over, as after a restart). */
  execution(): DurableStep {
    const counts = new Map<string, number>();
    const hang = new Promise<never>(() => undefined);
    return {
      do: async <T,>(name: string, config: DurableStepConfig, callback: (context: { attempt: number }) => Promise<T>): Promise<T> => {
        const count = (counts.get(name) ?? 0) + 1;
        counts.set(name, count);
        const key = `${name}/${count}`;
        const hit = this.stored.get(key);
        if (hit !== undefined) {
          if (hit.ok) return hit.value as T;
          throw hit.error;
        }
        if (this.stored.size >= this.crashAfter) return hang;
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
  return { registry, planner: new LLMPlanner({ model }), model, selected: { model, name: "scripted", provider: "test" } };
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

function trail(events: readonly RuntimeEvent[], stepId: string): string[] {
  return events.filter((event) => "stepId" in event && event.stepId === stepId).map((event) => `${event.type}${event.type === "step-error" && event.final ? "!" : ""}@${"attempt" in event ? event.attempt : ""}`);
}

const parallelPlan = [
  { id: "a", type: "tool", name: "lookup", arguments: { q: "one" } },
  { id: "b", type: "tool", name: "lookup", arguments: { q: "two" } },
  { id: "c", type: "tool", name: "flaky", arguments: { q: "{{a.value}} {{b.value}}" }, retries: 2, timeoutMs: 5000 },
  { id: "r", type: "reply", text: "{{c.value}}" },
];

describe("executeDurableRun with a stand-in engine and the real session object", () => {
  it("cannot wait for approval: a step the policy marks is denied at once, never called, and the run answers without it", async () => {
    const engine = new FakeEngine();
    const model = planningModel([
      { id: "s1", type: "tool", name: "lookup", arguments: { q: "x" } },
      { id: "s2", type: "tool", name: "send", arguments: { to: "{{s1.value}}" } },
      { id: "s3", type: "reply", text: "looked up {{s1.value}}" },
    ]);
    const { registry, calls } = createTools();
    const runId = "run-approval";
    const session = await openSession("unit-approval", runId);
    const setup: RunSetup = { ...setupOf(registry, model), policy: { send: { approval: "plan" } } };
    const result = await executeDurableRun({ params: { runId, session: "unit-approval", query: "go" }, step: engine.execution(), session, setup, createdAt: Date.now() });
    expect(result).toEqual({ runId, reason: "completed", reply: "looked up x!" });
    expect(Object.fromEntries(calls)).toEqual({ lookup: 1 });
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "approval-request")).toMatchObject({ steps: [{ stepId: "s2", tool: "send" }] });
    expect(events.find((event) => event.type === "approval-decision")).toMatchObject({ stepId: "s2", approved: false, by: "timeout" });
    expect(trail(events, "s2")).toEqual(["approval-decision@", "step-skipped@"]);
    expect(events.find((event) => event.type === "step-skipped")).toMatchObject({ stepId: "s2", code: "denied" });
  });

  it("plans in one step, runs each plan step in one step.do named by id and input hash, parallel where independent", async () => {
    const engine = new FakeEngine();
    const model = planningModel(parallelPlan);
    const { registry } = createTools(1);
    const runId = "run-parallel";
    const session = await openSession("unit-parallel", runId);
    const result = await executeDurableRun({ params: { runId, session: "unit-parallel", query: "go" }, step: engine.execution(), session, setup: setupOf(registry, model), createdAt: Date.now() });

    expect(result).toEqual({ runId, reason: "completed", reply: "one! two!?" });
    expect(engine.calls.map((call) => call.name)).toEqual([
      "plan",
      await durableStepName("a", { q: "one" }),
      await durableStepName("b", { q: "two" }),
      await durableStepName("c", { q: "one! two!" }),
    ]);
    expect(engine.calls[1]?.name).toMatch(/^a#[0-9a-f]{12}$/);
    expect(engine.calls[3]?.config).toEqual({ retries: { limit: 2, delay: 100, backoff: "exponential" }, timeout: 6000 });
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
    for (let waited = 0; engine.stored.size < 2 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await session.summary(runId);
    expect(before).toMatchObject({ ended: false, steps: [{ id: "s1", status: "succeeded" }, { id: "s2", status: "planned" }, { id: "s3", status: "planned" }] });

    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup: setupOf(registry, model), createdAt });
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
    const planner = createFakePlanner({ steps: [tool("s1", "flaky", { q: "x" }, { retries: 1 }), tool("s2", "lookup", { q: "{{s1.value}}" }), reply("s3", "{{s2.value}}")] });
    const { registry, calls } = createTools(5);
    const runId = "run-failure";
    const session = await openSession("unit-failure", runId);
    const params = { runId, session: "unit-failure", query: "go" };
    const setup: RunSetup = { registry, planner, model: planningModel([]), selected: { model: planningModel([]), name: "scripted", provider: "test" } };
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
    expect(trail(events, "s1")).toEqual(["step-start@1", "step-error@1", "step-retry@2", "step-start@2", "step-error!@2"]);
    expect(trail(events, "s2")).toEqual(["step-skipped@"]);
  });
});
