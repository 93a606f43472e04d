import { describe, expect, it } from "vitest";
import {
  AgentRuntime,
  type ApprovalDecision,
  type PlanStep,
  type RuntimeEvent,
  type ToolPolicy,
  type ToolRegistry,
} from "../../src/index.ts";
import type { PlanModel, PlanModelRequest } from "../../src/model.ts";
import type { Planner } from "../../src/runtime.ts";
import type { RunSetup } from "../../worker/runs/create-run-setup.ts";
import { executeDurableRun } from "../../worker/runs/execute-durable-run.ts";
import { workerDefaults } from "../../worker/worker-defaults.ts";
import { createEchoModel, createFakePlanner, invariantProblems, reply, tool } from "../runtime/fake-planner.ts";
import { comparable, perStep } from "./compare-events.ts";
import { createTools, openSession } from "./durable-fixtures.workerd.ts";
import { FakeEngine, loggedEvents, until } from "./fake-engine.ts";

/** A model for the run's own calls: reflection says `retry`, integration answers from the prompt's length. */
function runModel() {
  return createEchoModel((request) =>
    request.purpose === "reflect"
      ? '{"action":"retry","reason":"it was busy"}'
      : `Answer of ${request.prompt.length} characters.`,
  );
}

/** How many calls of each purpose a model had. */
function purposes(requests: readonly PlanModelRequest[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const request of requests) counted[request.purpose ?? "none"] = (counted[request.purpose ?? "none"] ?? 0) + 1;
  return counted;
}

/** The same run in memory, with the runtime settings of a durable run. */
async function inMemory(
  planner: Planner,
  registry: ToolRegistry,
  budget = workerDefaults.durableBudget,
  options: { model?: PlanModel; policy?: Record<string, ToolPolicy>; approve?: ApprovalDecision[] } = {},
): Promise<RuntimeEvent[]> {
  const model = options.model ?? runModel();
  const runtime = new AgentRuntime({
    maxConcurrency: workerDefaults.runtime.maxConcurrency,
    timeoutMs: workerDefaults.runtime.timeoutMs,
    planner,
    registry,
    model,
    budget,
    approvalTimeoutMs: workerDefaults.durableApprovalTimeoutMs,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
  });
  const run = runtime.run("go");
  if (options.approve !== undefined) {
    // The decision comes once the run waits only for it, as a durable run asks for it then.
    let decided = false;
    for await (const _event of run)
      if (!decided && run.waitingForApproval) {
        decided = true;
        run.approve(options.approve);
      }
  }
  await run.done;
  return [...run.events];
}

function setupOf(planner: Planner, registry: ToolRegistry, model = runModel()): RunSetup {
  return { registry, planner, model, selected: { model, name: "scripted", provider: "test" } };
}

/** Retries after reflection; the reply cannot be resolved, so the model integrates the answer. */
const reflectingPlan: PlanStep[] = [
  tool("a", "lookup", { q: "one" }),
  tool("b", "lookup", { q: "one" }),
  tool("c", "flaky", { q: "{{a.value}}" }, { retries: 0 }),
  reply("r", "{{c.missing}}"),
];

describe("a durable run behaves like the same run in memory", () => {
  it("logs the events of the run in memory — reflection, retry, integration — also when it restarts during integration", async () => {
    const memoryTools = createTools(1);
    const expected = await inMemory(createFakePlanner({ steps: reflectingPlan }), memoryTools.registry);
    expect(expected.some((event) => event.type === "reflection")).toBe(true);
    expect(expected.find((event) => event.type === "reply")).toMatchObject({ source: "model" });
    const end = expected.at(-1);

    const engine = new FakeEngine();
    engine.crashOn = (name) => name.startsWith("model:integrate:");
    const { registry, calls } = createTools(1);
    const model = runModel();
    const runId = "run-parity-reflect";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup = setupOf(createFakePlanner({ steps: reflectingPlan }), registry, model);
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY);
    expect(purposes(model.requests)).toEqual({ reflect: 1, integrate: 1 });

    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(end?.type === "run-end" ? end.reason : undefined).toBe(result.reason);
    // Only the call the engine had not stored is asked again; no tool is called again.
    expect(purposes(model.requests)).toEqual({ reflect: 1, integrate: 2 });
    expect(Object.fromEntries(calls)).toEqual(Object.fromEntries(memoryTools.calls));
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(comparable(events)).toEqual(comparable(expected));
    const answer = expected.find((event) => event.type === "reply");
    expect(result.reply).toBe(answer?.type === "reply" ? answer.text : "");
  });

  it("counts the stored tool calls against the budget after a restart, as the run in memory counts them", async () => {
    const plan = [
      tool("a", "lookup", { q: "one" }),
      tool("b", "lookup", { q: "{{a.value}}" }),
      tool("c", "lookup", { q: "{{b.value}}" }),
      reply("r", "{{c.value}}"),
    ];
    const budget = { toolCalls: 2, modelCalls: 0 };
    const expected = await inMemory(createFakePlanner({ steps: plan }), createTools(1).registry, budget);
    expect(expected.find((event) => "stepId" in event && event.stepId === "c")).toMatchObject({
      type: "step-skipped",
      code: "budget",
    });

    const engine = new FakeEngine();
    engine.crashOn = (name) => name.startsWith("b#");
    const { registry, calls } = createTools(1);
    const runId = "run-parity-budget";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup: RunSetup = { ...setupOf(createFakePlanner({ steps: plan }), registry), budget };
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY);
    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(result.reason).toBe("budget");
    // a once, b twice (the first call was not stored), c never.
    expect(calls.get("lookup")).toBe(3);
    const events = await loggedEvents(session, runId);
    expect(events.find((event) => "stepId" in event && event.stepId === "c")).toMatchObject({
      type: "step-skipped",
      code: "budget",
    });
    expect(comparable(events)).toEqual(comparable(expected));
  });

  it("counts a model call stored before a restart against the budget: the answer is the template, as in memory", async () => {
    // The plan's call and the reflection's.
    const budget = { ...workerDefaults.durableBudget, modelCalls: 2 };
    const plan = reflectingPlan.filter((step) => step.id !== "b");
    const expected = await inMemory(createFakePlanner({ steps: plan }), createTools(1).registry, budget);
    expect(expected.filter((event) => event.type === "reflection")).toHaveLength(1);
    expect(expected.find((event) => event.type === "reply")).toMatchObject({ source: "template" });

    const engine = new FakeEngine();
    // Dies as the retried step ends, after the reflection that asked for the retry was stored.
    engine.crashOn = (name) => name.startsWith("c#") && engine.stored.has("model:reflect:c:1/1");
    const { registry } = createTools(1);
    const model = runModel();
    const runId = "run-parity-model-budget";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup: RunSetup = { ...setupOf(createFakePlanner({ steps: plan }), registry, model), budget };
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY && engine.running === 0);
    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    // The stored reflection used the last model call: the model is not asked to integrate.
    expect(purposes(model.requests)).toEqual({ reflect: 1 });
    expect(perStep(await loggedEvents(session, runId))).toEqual(perStep(expected));
  });

  it("keeps the deadline across a restart: it counts from the stored start", async () => {
    const plan = [tool("a", "lookup", { q: "one" }), reply("r", "{{a.value}}")];
    const engine = new FakeEngine();
    engine.crashOn = (name) => name.startsWith("a#");
    const { registry } = createTools(1);
    const runId = "run-deadline";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup: RunSetup = { ...setupOf(createFakePlanner({ steps: plan }), registry), budget: { deadlineMs: 300 } };
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY);
    await new Promise((resolve) => setTimeout(resolve, 350));
    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(result.reason).toBe("deadline");
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "deadline" });
  });
});

describe("the parity table: re-plan and approval", () => {
  it("logs the events of the run in memory when reflection asks for a new plan, also when it restarts during the re-plan", async () => {
    const plan = [
      tool("a", "lookup", { q: "one" }),
      tool("b", "flaky", { q: "{{a.value}}" }, { retries: 0 }),
      reply("r", "{{b.value}}"),
    ];
    const replan = () => [tool("c", "lookup", { q: "two" }), reply("r2", "{{a.value}} {{c.value}}")];
    const replanModel = () =>
      createEchoModel((request) =>
        request.purpose === "reflect" ? '{"action":"new_plan","reason":"the service is down"}' : "unused",
      );
    const expected = await inMemory(createFakePlanner({ steps: plan, replan }), createTools(5).registry, undefined, {
      model: replanModel(),
    });
    expect(expected.filter((event) => event.type === "replan")).toHaveLength(1);
    expect(expected.find((event) => event.type === "reply")).toMatchObject({ text: "one! two!" });

    const engine = new FakeEngine();
    engine.crashOn = (name) => name.startsWith("replan-");
    const { registry, calls } = createTools(5);
    const planner = createFakePlanner({ steps: plan, replan });
    const model = replanModel();
    const runId = "run-parity-replan";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup = setupOf(planner, registry, model);
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY && engine.running === 0);
    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(result).toMatchObject({ reason: "completed", reply: "one! two!" });
    // The re-plan was not stored, so it was asked again; the reflection was, so it was not.
    expect(planner.log.replans).toHaveLength(2);
    expect(purposes(model.requests)).toEqual({ reflect: 1 });
    expect(Object.fromEntries(calls)).toEqual({ lookup: 2, flaky: 1 });
    expect(comparable(await loggedEvents(session, runId))).toEqual(comparable(expected));
  });

  it("counts the tokens of a streamed re-plan as the run in memory does", async () => {
    const plan = [
      tool("a", "lookup", { q: "one" }),
      tool("b", "flaky", { q: "{{a.value}}" }, { retries: 0 }),
      reply("r", "{{b.value}}"),
    ];
    const patch = [tool("c", "lookup", { q: "two" }), reply("r2", "{{a.value}} {{c.value}}")];
    // A planner that streams its patch (as LLMPlanner does) and reports the re-plan's model call and tokens on done.
    const streaming = (): Planner => {
      const inner = createFakePlanner({ steps: plan, replan: () => patch });
      return {
        stream: (request) => inner.stream(request),
        replan: (request) => inner.replan(request),
        async *streamReplan() {
          for (const [index, step] of patch.entries()) yield { type: "step", step, index };
          yield {
            type: "done",
            steps: patch,
            clean: true,
            finishReason: "stop",
            fallback: false,
            usage: { modelCalls: 1, inputTokens: 1_931, outputTokens: 25 },
          };
        },
      };
    };
    const replanModel = () =>
      createEchoModel((request) =>
        request.purpose === "reflect" ? '{"action":"new_plan","reason":"the service is down"}' : "unused",
      );
    const expected = await inMemory(streaming(), createTools(5).registry, undefined, { model: replanModel() });
    const expectedEnd = expected.at(-1);
    if (expectedEnd?.type !== "run-end") throw new Error("the run in memory did not end");
    // The re-plan's tokens are in the run's usage, beside the reflection's.
    expect(expectedEnd.usage.inputTokens).toBeGreaterThan(1_931);
    expect(expectedEnd.usage.outputTokens).toBeGreaterThan(25);

    const engine = new FakeEngine();
    const { registry } = createTools(5);
    const model = replanModel();
    const runId = "run-parity-replan-usage";
    const session = await openSession("parity-usage", runId);
    const params = { runId, session: "parity-usage", query: "go", engine: 2 as const };
    const setup = setupOf(streaming(), registry, model);
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt: Date.now() });
    expect(result).toMatchObject({ reason: "completed", reply: "one! two!" });
    const logged = await loggedEvents(session, runId);
    expect(comparable(logged)).toEqual(comparable(expected));
    expect(logged.at(-1)).toMatchObject({ type: "run-end", usage: expectedEnd.usage });
  });

  it("logs the events of the run in memory when a step waits for approval and is approved", async () => {
    const plan = [
      tool("a", "lookup", { q: "one" }),
      tool("s", "send", { to: "{{a.value}}" }),
      reply("r", "sent to {{s.sent}}"),
    ];
    const policy = { send: { approval: "plan" as const } };
    const decisions = [{ stepId: "s", approved: true, arguments: { to: "bob" } }];
    const expected = await inMemory(createFakePlanner({ steps: plan }), createTools().registry, undefined, {
      policy,
      approve: decisions,
    });
    expect(expected.find((event) => event.type === "reply")).toMatchObject({ text: "sent to bob" });

    const engine = new FakeEngine();
    const { registry, calls } = createTools();
    const runId = "run-parity-approval";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup: RunSetup = {
      ...setupOf(createFakePlanner({ steps: plan }), registry),
      policy,
      approvalTimeoutMs: workerDefaults.durableApprovalTimeoutMs,
    };
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.waiting);
    // The execution dies while it waits; the next one replays to the same wait and gets the decision.
    const resumed = executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.waiting);
    engine.send({ decisions });
    expect(await resumed).toMatchObject({ reason: "completed", reply: "sent to bob" });
    expect(Object.fromEntries(calls)).toEqual({ lookup: 1, send: 1 });
    expect(comparable(await loggedEvents(session, runId))).toEqual(comparable(expected));
  });
});

describe("an instance created before engine 2", () => {
  it("replays the way it was made: no start step, no reflection, no recorded model calls", async () => {
    const engine = new FakeEngine();
    const { registry, calls } = createTools(1);
    const model = runModel();
    const runId = "run-legacy";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go" };
    const result = await executeDurableRun({
      params,
      step: engine.execution(),
      session,
      setup: setupOf(createFakePlanner({ steps: reflectingPlan }), registry, model),
      createdAt: Date.now(),
    });
    expect(result.reason).toBe("failed");
    expect(calls.get("flaky")).toBe(1);
    expect(engine.calls.map((call) => call.name).filter((name) => !name.includes("#"))).toEqual(["plan", "replan-1"]);
    expect(purposes(model.requests)).toEqual({ integrate: 1 });
    const events = await loggedEvents(session, runId);
    expect(events.some((event) => event.type === "reflection")).toBe(false);
  });
});

describe("a tool call cut off by a restart", () => {
  it("does not start a side-effecting tool again: the step fails with outcome-unknown and the re-plan decides", async () => {
    const engine = new FakeEngine();
    engine.crashOn = (name) => name.startsWith("s1#") && !name.endsWith(":started");
    const { registry, calls } = createTools(1);
    const planner = createFakePlanner({
      steps: [tool("s1", "send", { to: "ann" }), reply("s2", "sent to {{s1.sent}}")],
      replan: () => [reply("s3", "Not sure the message went out.")],
    });
    const runId = "run-outcome-unknown";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const model = runModel();
    const setup = setupOf(planner, registry, model);
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY);
    expect(calls.get("send")).toBe(1);
    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(calls.get("send")).toBe(1);
    expect(result).toMatchObject({ reason: "completed", reply: "Not sure the message went out." });
    const events = await loggedEvents(session, runId);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.filter((event) => event.type === "step-start" && event.stepId === "s1")).toHaveLength(1);
    expect(events.find((event) => event.type === "step-error" && event.stepId === "s1")).toMatchObject({
      final: true,
      error: { code: "outcome-unknown" },
    });
    // The reflector asked for a retry; the runtime refused it, since the tool may have acted.
    expect(events.find((event) => event.type === "reflection")).toMatchObject({
      stepId: "s1",
      action: "retry",
      refused: expect.stringContaining("not run again"),
    });
    // A replay of the whole run ends the same way without calling anything.
    const requests = model.requests.length;
    expect(await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt })).toEqual(result);
    expect(calls.get("send")).toBe(1);
    expect(model.requests).toHaveLength(requests);
  });

  it("runs a read-only tool again", async () => {
    const engine = new FakeEngine();
    engine.crashOn = (name) => name.startsWith("s1#");
    const { registry, calls } = createTools(1);
    const planner = createFakePlanner({ steps: [tool("s1", "lookup", { q: "x" }), reply("s2", "{{s1.value}}")] });
    const runId = "run-read-only-again";
    const session = await openSession("parity", runId);
    const params = { runId, session: "parity", query: "go", engine: 2 as const };
    const setup = setupOf(planner, registry);
    const createdAt = Date.now();
    void executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    await until(() => engine.crashAfter !== Number.POSITIVE_INFINITY);
    engine.crashOn = undefined;
    engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await executeDurableRun({ params, step: engine.execution(), session, setup, createdAt });
    expect(result).toMatchObject({ reason: "completed", reply: "x!" });
    expect(calls.get("lookup")).toBe(2);
    expect(engine.calls.some((call) => call.name.endsWith(":started"))).toBe(false);
  });
});
