import { describe, expect, it } from "vitest";
import { LLMPlanner, type RuntimeEvent, type ToolRegistry } from "../../src/index.ts";
import type { PlanModel } from "../../src/model.ts";
import { createScriptedModel } from "../../src/test.ts";
import type { RunSetup } from "../../worker/runs/create-run-setup.ts";
import { durableStepName } from "../../worker/runs/durable-step-name.ts";
import { executeDurableRun } from "../../worker/runs/execute-durable-run.ts";
import { createFakePlanner, invariantProblems, reply, tool } from "../runtime/fake-planner.ts";
import { createTools, openSession } from "./durable-fixtures.workerd.ts";
import { FakeEngine, loggedEvents, until } from "./fake-engine.ts";

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

function setupOf(registry: ToolRegistry, model: PlanModel): RunSetup {
  return {
    registry,
    planner: new LLMPlanner({ model }),
    model,
    selected: { model, name: "scripted", provider: "test" },
  };
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
    const params = { runId, session: "unit-approval", query: "go", engine: 2 as const };
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
    const params = { runId, session: "unit-approval", query: "go", engine: 2 as const };
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
      params: { runId, session: "unit-parallel", query: "go", engine: 2 as const },
      step: engine.execution(),
      session,
      setup: setupOf(registry, model),
      createdAt: Date.now(),
    });

    expect(result).toEqual({ runId, reason: "completed", reply: "one! two!?" });
    expect(engine.calls.map((call) => call.name)).toEqual([
      "started-at",
      "plan",
      await durableStepName("a", { q: "one" }),
      await durableStepName("b", { q: "two" }),
      await durableStepName("c", { q: "one! two!" }),
    ]);
    expect(engine.calls[2]?.name).toMatch(/^a#[0-9a-f]{12}$/);
    expect(engine.calls[4]?.config).toEqual({
      retries: { limit: 2, delay: 100, backoff: "exponential" },
      timeout: 6000,
    });
    // The two lookups start while the plan step still runs.
    expect(engine.maxRunning).toBe(3);
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
    const params = { runId, session: "unit-crash", query: "go", engine: 2 as const };
    engine.crashAfter = 3;
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup: setupOf(registry, model), createdAt });
    for (let waited = 0; engine.stored.size < 3 && waited < 2000; waited += 5)
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
    const params = { runId, session: "unit-failure", query: "go", engine: 2 as const };
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
