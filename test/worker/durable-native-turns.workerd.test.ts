import { describe, expect, it } from "vitest";
import { AgentRuntime, ToolCallPlanner } from "../../src/index.ts";
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../../src/model.ts";
import type { RunSetup } from "../../worker/runs/create-run-setup.ts";
import type { DurableStep } from "../../worker/runs/durable-step.ts";
import { executeDurableRun } from "../../worker/runs/execute-durable-run.ts";
import { workerDefaults } from "../../worker/worker-defaults.ts";
import { finish, streamedCall } from "../fixtures/create-turn-model.ts";
import { invariantProblems } from "../runtime/fake-planner.ts";
import { perStep } from "./compare-events.ts";
import { createTools, openSession } from "./durable-fixtures.workerd.ts";
import { FakeEngine, loggedEvents, until } from "./fake-engine.ts";

type TurnItem = PlanModelPart | { type: "pause"; ms: number };

/** A model that looks a thing up and sends it (one turn), then answers "Sent." once it heard the results. */
const script: readonly (readonly TurnItem[])[] = [
  [
    ...streamedCall("c1", "lookup", '{"q":"paris"}'),
    { type: "pause", ms: 40 },
    ...streamedCall("c2", "send", '{"to":"{{s1.value}}"}'),
    { type: "pause", ms: 20 },
    finish("tool-calls"),
  ],
  [{ type: "text", text: "Sent." }, finish("stop")],
];

/**
 * Plays the scripted turn that follows the results the request carries (so a
 * turn asked again after a restart is the same turn), logging each part.
 */
function turnModel(log: string[] = []): PlanModel & { requests: PlanModelRequest[] } {
  const requests: PlanModelRequest[] = [];
  return {
    requests,
    async *stream(request) {
      requests.push(request);
      const turn = script[request.messages?.filter((message) => message.role === "tool").length ?? 0] ?? [];
      for (const item of turn) {
        if (item.type === "pause") await new Promise((resolve) => setTimeout(resolve, item.ms));
        else {
          log.push(`model ${item.type}${"callId" in item ? ` ${item.callId}` : ""}`);
          yield item;
        }
      }
    },
  };
}

/** A durable run whose planner plans from native tool calls, on a stand-in engine that can crash. */
async function nativeRun(name: string, withCreatePlanner = true, engineVersion: 2 | 3 = 2) {
  const log: string[] = [];
  const model = turnModel(log);
  const { registry, calls } = createTools();
  const setup: RunSetup = {
    registry,
    planner: new ToolCallPlanner({ model }),
    ...(withCreatePlanner ? { createPlanner: (recorded: PlanModel) => new ToolCallPlanner({ model: recorded }) } : {}),
    model,
    selected: { model, name: "scripted", provider: "test" },
  };
  const engine = new FakeEngine();
  const runId = `run-native-${name}`;
  const session = await openSession("native", runId);
  const params = { runId, session: "native", query: "look up paris and send it", engine: engineVersion };
  const createdAt = Date.now();
  const traced = (): DurableStep => {
    const step = engine.execution();
    return {
      do: (stepName, config, callback) => {
        log.push(`step ${stepName}`);
        return step.do(stepName, config, callback);
      },
      waitForEvent: (stepName, options) => step.waitForEvent(stepName, options),
    };
  };
  return {
    engine,
    log,
    model,
    calls,
    execute: () => executeDurableRun({ params, step: traced(), session, setup, createdAt }),
    /**
     * Starts an execution that dies once `point` steps are stored, or once a
     * step whose name `point` accepts has run (before it is stored).
     */
    async crash(point: number | ((name: string) => boolean)): Promise<void> {
      if (typeof point === "number") engine.crashAfter = point;
      else engine.crashOn = point;
      void executeDurableRun({ params, step: traced(), session, setup, createdAt });
      await until(() => engine.stored.size >= engine.crashAfter && engine.running === 0);
      engine.execution();
      engine.crashOn = undefined;
      engine.crashAfter = Number.POSITIVE_INFINITY;
    },
    events: () => loggedEvents(session, runId),
  };
}

const stepNames = (engine: FakeEngine) => engine.calls.map((call) => call.name.replace(/#.*?(?=:|$)/u, "#"));

describe("a durable run that plans from native tool calls (ToolCallPlanner)", () => {
  it("records each model turn as a step, starts the read as its arguments close and the send once the turn is stored", async () => {
    const run = await nativeRun("basic");
    const result = await run.execute();
    expect(result).toMatchObject({ reason: "completed", reply: "Sent." });
    expect(stepNames(run.engine)).toEqual(["started-at", "model:plan:1", "s1#", "s2#:started", "s2#", "model:plan:2"]);
    expect(Object.fromEntries(run.calls)).toEqual({ lookup: 1, send: 1 });
    // The read started while the model still wrote its turn; the send only after the turn's finish.
    const at = (prefix: string) => run.log.findIndex((line) => line.startsWith(prefix));
    expect(at("step s1#")).toBeLessThan(at("model tool-input-start c2"));
    expect(at("step s2#")).toBeGreaterThan(at("model finish"));
    const events = await run.events();
    expect(invariantProblems(events)).toEqual([]);
    // The second turn heard both results.
    expect(run.model.requests[1]?.messages?.[1]).toMatchObject({
      role: "tool",
      results: [
        { callId: "c1", output: { value: "paris!" } },
        { callId: "c2", output: { sent: "paris!" } },
      ],
    });
  });

  it("logs the events of the same run in memory", async () => {
    const model = turnModel();
    const { registry } = createTools();
    const runtime = new AgentRuntime({
      maxConcurrency: workerDefaults.runtime.maxConcurrency,
      timeoutMs: workerDefaults.runtime.timeoutMs,
      planner: new ToolCallPlanner({ model }),
      registry,
      model,
      budget: workerDefaults.durableBudget,
      approvalTimeoutMs: workerDefaults.durableApprovalTimeoutMs,
    });
    const memoryRun = runtime.run("look up paris and send it");
    await memoryRun.done;
    const run = await nativeRun("parity");
    await run.execute();
    expect(perStep(await run.events())).toEqual(perStep(memoryRun.events));
  });

  it("restarted during the second turn: asks only for that turn again, calls no tool again, ends the same", async () => {
    const run = await nativeRun("mid-turn");
    await run.crash((name) => name === "model:plan:2");
    expect(run.model.requests).toHaveLength(2);
    const result = await run.execute();
    expect(result).toMatchObject({ reason: "completed", reply: "Sent." });
    expect(run.model.requests.map((request) => request.messages?.length ?? 0)).toEqual([0, 2, 2]);
    expect(Object.fromEntries(run.calls)).toEqual({ lookup: 1, send: 1 });
    const events = await run.events();
    expect(invariantProblems(events)).toEqual([]);
    expect(events.filter((event) => event.type === "step-start")).toHaveLength(3);
  });

  it("restarted during the first turn: the read comes back from storage, and nothing was sent", async () => {
    const run = await nativeRun("mid-first-turn");
    // Dies once the start and the read are stored, while the model still writes its first turn.
    await run.crash(2);
    expect([...run.engine.stored.keys()]).toEqual(["started-at/1", expect.stringMatching(/^s1#/u)]);
    expect(run.calls.get("send")).toBeUndefined();
    expect(run.calls.get("lookup")).toBe(1);
    const result = await run.execute();
    expect(result).toMatchObject({ reason: "completed", reply: "Sent." });
    // The turn was not stored: the model wrote it again; the read it had started was stored, the send had not begun.
    expect(run.model.requests.map((request) => request.messages?.length ?? 0)).toEqual([0, 0, 2]);
    expect(Object.fromEntries(run.calls)).toEqual({ lookup: 1, send: 1 });
    expect(invariantProblems(await run.events())).toEqual([]);
  });

  it("restarted during the send: does not send again, the step ends outcome-unknown and the next turn hears it", async () => {
    const run = await nativeRun("mid-send");
    await run.crash((name) => name.startsWith("s2#") && !name.endsWith(":started"));
    expect(run.calls.get("send")).toBe(1);
    const result = await run.execute();
    // A step failed, so the run did, as in memory; the model's answer is still the reply.
    expect(result).toMatchObject({ reason: "failed", reply: "Sent." });
    expect(run.calls.get("send")).toBe(1);
    const events = await run.events();
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "step-error" && event.stepId === "s2")).toMatchObject({
      error: { code: "outcome-unknown" },
    });
    expect(JSON.stringify(run.model.requests.at(-1)?.messages)).toContain("outcome was not stored");
  });

  it("with the send's start claimed in the session (engine 3): one step fewer, and a restart mid-send sends once", async () => {
    const run = await nativeRun("claimed", true, 3);
    expect(await run.execute()).toMatchObject({ reason: "completed", reply: "Sent." });
    expect(stepNames(run.engine)).toEqual(["started-at", "model:plan:1", "s1#", "s2#", "model:plan:2"]);
    const cut = await nativeRun("claimed-mid-send", true, 3);
    await cut.crash((name) => name.startsWith("s2#"));
    expect(cut.calls.get("send")).toBe(1);
    expect(await cut.execute()).toMatchObject({ reason: "failed", reply: "Sent." });
    expect(cut.calls.get("send")).toBe(1);
    expect(stepNames(cut.engine).filter((name) => name.endsWith(":started"))).toEqual([]);
    const events = await cut.events();
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "step-error" && event.stepId === "s2")).toMatchObject({
      error: { code: "outcome-unknown" },
    });
    expect(JSON.stringify(cut.model.requests.at(-1)?.messages)).toContain("outcome was not stored");
  });

  it("fails at once, saying what to do, when the turns planner is given only as `planner`", async () => {
    const run = await nativeRun("no-create-planner", false);
    const result = await run.execute();
    expect(result.reason).toBe("failed");
    const events = await run.events();
    expect(events.find((event) => event.type === "plan-end")).toMatchObject({
      error: { message: expect.stringContaining("RunSetup.createPlanner") },
    });
    expect(run.calls.get("send")).toBeUndefined();
  });
});
