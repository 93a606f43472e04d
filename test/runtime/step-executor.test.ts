import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import type { StepAttemptOutcome, StepCall, StepExecutor } from "../../src/runtime/step-executor.ts";
import {
  collect,
  createEchoModel,
  createFakePlanner,
  deferred,
  invariantProblems,
  llm,
  reply,
  tool,
} from "./fake-planner.ts";
import { createFlakyTool, createTestRegistry } from "./test-tools.ts";

/** An executor that retries as long as the runtime says it may, recording every call. */
function retryingExecutor(options: { retryDelayMs?: number } = {}): StepExecutor & { calls: StepCall[] } {
  const calls: StepCall[] = [];
  const executor = async (call: StepCall): Promise<StepAttemptOutcome> => {
    calls.push(call);
    for (;;) {
      const outcome = await call.attempt(
        options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs },
      );
      if (outcome.ok || !outcome.retryable) return outcome;
    }
  };
  return Object.assign(executor, { calls });
}

function stepTrail(events: readonly RuntimeEvent[], stepId: string): string[] {
  return events
    .filter((event) => "stepId" in event && event.stepId === stepId && event.type !== "reply")
    .map(
      (event) =>
        (event.type === "step-error" ? `step-error${event.final ? "!" : ""}` : event.type) +
        ("attempt" in event ? `@${event.attempt}` : ""),
    );
}

describe("executeStep: running step attempts through the caller", () => {
  it("hands each tool and llm step over with its references resolved and its policy, and reports every attempt", async () => {
    const { registry, calls } = createTestRegistry({ extra: [createFlakyTool(1)] });
    const executor = retryingExecutor({ retryDelayMs: 1234 });
    const steps: PlanStep[] = [
      tool("s1", "lookup", { q: "paris" }),
      tool("s2", "flaky", { from: "{{s1.value}}" }, { retries: 2, timeoutMs: 500 }),
      llm("s3", "Summarize {{s2.args.from}}"),
      reply("s4", "{{s3}}"),
    ];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps }),
      registry,
      memory: false,
      model: createEchoModel((request) => `echo: ${request.prompt}`),
      executeStep: executor,
    });
    const run = runtime.run("go");
    const events = await collect(run);

    expect(invariantProblems(events)).toEqual([]);
    expect(executor.calls.map((call) => [call.step.id, call.input, call.retries, call.timeoutMs])).toEqual([
      ["s1", { q: "paris" }, 2, 30_000],
      ["s2", { from: "paris!" }, 2, 500],
      ["s3", "Summarize paris!", 2, 30_000],
    ]);
    expect(executor.calls.every((call) => call.runId === run.runId && call.signal instanceof AbortSignal)).toBe(true);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    expect(stepTrail(events, "s2")).toEqual([
      "step-start@1",
      "step-error@1",
      "step-retry@2",
      "step-start@2",
      "step-end@2",
    ]);
    expect(events.find((event) => event.type === "step-retry")).toMatchObject({ delayMs: 1234, cause: "policy" });
    expect(run.state.reply?.text).toBe("echo: Summarize paris!");
    expect(run.state.reason).toBe("completed");
  });

  it("takes a value the executor stored earlier without an attempt, and passes it on to dependents", async () => {
    const { registry, calls } = createTestRegistry();
    const stored = new Map<string, unknown>([["s1", { value: "from the log" }]]);
    const executor: StepExecutor = async (call) =>
      stored.has(call.step.id) ? { ok: true, value: stored.get(call.step.id), cached: false } : call.attempt();
    const steps = [
      tool("s1", "lookup", { q: "x" }),
      tool("s2", "lookup", { q: "{{s1.value}}" }),
      reply("s3", "{{s2.value}}"),
    ];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps }),
      registry,
      memory: false,
      executeStep: executor,
    });
    const events = await collect(runtime.run("go"));

    expect(invariantProblems(events)).toEqual([]);
    expect(calls.map((call) => call.args)).toEqual([{ q: "from the log" }]);
    expect(stepTrail(events, "s1")).toEqual(["step-end@1"]);
    expect(events.find((event) => event.type === "reply")).toMatchObject({ text: "from the log!" });
  });

  it("serves a read identical to a replayed one from the run's cache, until a replayed side effect makes it stale", async () => {
    const { registry, calls } = createTestRegistry();
    // An earlier process stored s1 (a read) and s3 (a side effect); the runtime's cache learns from both.
    const stored = new Map<string, unknown>([
      ["s1", { value: "stored!" }],
      ["s3", { sent: "bob" }],
    ]);
    const executor: StepExecutor = async (call) => {
      if (!stored.has(call.step.id)) return call.attempt();
      call.replayed(1, false);
      return { ok: true, value: stored.get(call.step.id), cached: false };
    };
    const steps = [
      tool("s1", "lookup", { q: "x" }),
      tool("s2", "lookup", { q: "x" }, { dependsOn: ["s1"] }),
      tool("s3", "send", { to: "bob" }, { dependsOn: ["s2"] }),
      tool("s4", "lookup", { q: "x" }, { dependsOn: ["s3"] }),
      reply("s5", "{{s2.value}} {{s4.value}}"),
    ];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps }),
      registry,
      memory: false,
      executeStep: executor,
    });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    // s2 reads what s1 stored, without a call; s4 comes after the write and reads again.
    expect(events.find((event) => event.type === "step-start" && event.stepId === "s2")).toMatchObject({
      cached: true,
    });
    expect(calls.map((call) => [call.name, call.args])).toEqual([["lookup", { q: "x" }]]);
    expect(run.state.reply?.text).toBe("stored! x!");
    expect(run.state.usage.cacheHits).toBe(1);
  });

  it("hands independent steps over at once and holds a dependent until its inputs exist", async () => {
    const { registry } = createTestRegistry();
    const gates = new Map([
      ["a", deferred()],
      ["b", deferred()],
    ]);
    const started: string[] = [];
    const executor: StepExecutor = async (call) => {
      started.push(call.step.id);
      await gates.get(call.step.id)?.promise;
      return call.attempt();
    };
    const steps = [
      tool("a", "lookup", { q: "1" }),
      tool("b", "lookup", { q: "2" }),
      tool("c", "combine", { parts: ["{{a.value}}", "{{b.value}}"] }),
      reply("r", "{{c.text}}"),
    ];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps }),
      registry,
      memory: false,
      executeStep: executor,
    });
    const run = runtime.run("go");
    while (started.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual(["a", "b"]);
    gates.get("b")?.resolve();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual(["a", "b"]);
    gates.get("a")?.resolve();
    const state = await run.done;
    expect(started).toEqual(["a", "b", "c"]);
    expect(state.reply?.text).toBe("1!+2!");
  });

  it("keeps the safety policy: a side-effecting step of an unclean plan never reaches the executor", async () => {
    const { registry, calls } = createTestRegistry();
    const executor = retryingExecutor();
    const steps = [tool("s1", "lookup", { q: "x" }), tool("s2", "send", { to: "bob" }), reply("s3", "done")];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps, clean: false }),
      registry,
      memory: false,
      executeStep: executor,
    });
    const run = runtime.run("go");
    const events = await collect(run);

    expect(invariantProblems(events)).toEqual([]);
    expect(executor.calls.map((call) => call.step.id)).toEqual(["s1"]);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    expect(run.state.steps.find((step) => step.step.id === "s2")).toMatchObject({
      status: "skipped",
      skip: { code: "unsafe-plan" },
    });
  });

  it("treats the executor's failure as final: no retries of its own, dependents skipped, one re-plan", async () => {
    const { registry } = createTestRegistry();
    let attempts = 0;
    const executor: StepExecutor = async (call) => {
      const outcome = await call.attempt();
      attempts++;
      return outcome;
    };
    const planner = createFakePlanner({
      steps: [tool("s1", "fail"), tool("s2", "lookup", { q: "{{s1.value}}" }), reply("s3", "{{s2.value}}")],
    });
    const runtime = new AgentRuntime({ planner, registry, memory: false, executeStep: executor });
    const run = runtime.run("go");
    const events = await collect(run);

    expect(invariantProblems(events)).toEqual([]);
    expect(attempts).toBe(1);
    // The runtime's policy would allow two retries; it announced the second attempt, which the executor chose not to make.
    expect(stepTrail(events, "s1")).toEqual(["step-start@1", "step-error@1", "step-retry@2", "step-error!@1"]);
    expect(planner.log.replans).toHaveLength(1);
    expect(run.state.steps.map((step) => step.status)).toEqual(["failed", "skipped", "skipped"]);
    expect(run.state.reason).toBe("failed");
  });

  it("reports a side-effecting tool as not retryable and an executor that throws as a failure", async () => {
    const { registry } = createTestRegistry();
    const outcomes: StepAttemptOutcome[] = [];
    const executor: StepExecutor = async (call) => {
      if (call.step.id === "s2") throw new PlankitError("timeout", "the engine gave up");
      const outcome = await call.attempt();
      outcomes.push(outcome);
      return outcome.ok ? outcome : { ok: false, error: outcome.error, retryable: false };
    };
    const runtime = new AgentRuntime({
      planner: createFakePlanner({
        steps: [tool("s1", "send", { to: "bob" }), tool("s2", "lookup", { q: "x" }), reply("s3", "ok")],
      }),
      registry,
      memory: false,
      executeStep: executor,
    });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(outcomes).toEqual([{ ok: true, value: { sent: "bob" }, cached: false }]);
    expect(events.find((event) => event.type === "step-error" && event.stepId === "s2")).toMatchObject({
      final: true,
      error: { code: "timeout", message: "the engine gave up" },
    });
  });

  it("ignores what an executor returns after the run was aborted", async () => {
    const { registry } = createTestRegistry();
    const gate = deferred();
    let outcome: StepAttemptOutcome | undefined;
    const executor: StepExecutor = async (call) => {
      await gate.promise;
      outcome = await call.attempt();
      return { ok: true, value: "late", cached: false };
    };
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps: [tool("s1", "lookup", { q: "x" }), reply("s2", "{{s1}}")] }),
      registry,
      memory: false,
      executeStep: executor,
    });
    const run = runtime.run("go");
    while (run.state.steps.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    run.abort("stop");
    gate.resolve();
    const events = await collect(run);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(invariantProblems(events)).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(events.some((event) => event.type === "step-end")).toBe(false);
    expect(run.state.reason).toBe("aborted");
  });

  it("tells the executor whether a step is repeatable and how many attempts came before, and counts replayed attempts against the budget", async () => {
    const { registry, calls } = createTestRegistry();
    const seen: [string, boolean, number][] = [];
    // s1 and s2 come from an earlier process: two attempts and one; s3 then finds the tool call budget spent.
    const stored = new Map<string, [unknown, number]>([
      ["s1", [{ sent: "bob" }, 2]],
      ["s2", [{ value: "x!" }, 1]],
    ]);
    const executor: StepExecutor = async (call) => {
      seen.push([call.step.id, call.repeatable, call.previousAttempts]);
      const hit = stored.get(call.step.id);
      if (hit === undefined) return call.attempt();
      call.replayed(hit[1], false);
      return { ok: true, value: hit[0], cached: false };
    };
    const steps = [
      tool("s1", "send", { to: "bob" }),
      tool("s2", "lookup", { q: "x" }),
      tool("s3", "lookup", { q: "{{s2.value}} {{s1.sent}}" }),
      reply("s4", "ok"),
    ];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps }),
      registry,
      memory: false,
      executeStep: executor,
      budget: { toolCalls: 3 },
    });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect([...seen].sort((a, b) => a[0].localeCompare(b[0]))).toEqual([
      ["s1", false, 0],
      ["s2", true, 0],
      ["s3", true, 0],
    ]);
    expect(calls).toEqual([]);
    expect(events.find((event) => event.type === "step-end" && event.stepId === "s1")).toMatchObject({ attempt: 2 });
    expect(events.find((event) => "stepId" in event && event.stepId === "s3")).toMatchObject({
      type: "step-skipped",
      code: "budget",
    });
    expect(run.state.usage.toolCalls).toBe(3);
  });

  it("skips a step whose stored outcome is a budget refusal, and numbers a reflector's retry after the attempts before it", async () => {
    const { registry } = createTestRegistry({ extra: [createFlakyTool(1)] });
    const previous: number[] = [];
    const executor: StepExecutor = async (call) => {
      if (call.step.id === "s2")
        return {
          ok: false,
          error: { code: "budget-exceeded", message: "The tool call budget of 1 is spent" },
          retryable: false,
          refused: true,
        };
      previous.push(call.previousAttempts);
      return call.attempt({ number: call.previousAttempts + 1 });
    };
    const model = createEchoModel(() => '{"action":"retry","reason":"busy"}');
    const steps = [
      tool("s1", "flaky", { from: "a" }, { retries: 0 }),
      tool("s2", "lookup", { q: "x" }),
      reply("s3", "ok"),
    ];
    const runtime = new AgentRuntime({
      planner: createFakePlanner({ steps }),
      registry,
      memory: false,
      model,
      executeStep: executor,
    });
    const events = await collect(runtime.run("go"));
    expect(invariantProblems(events)).toEqual([]);
    expect(previous).toEqual([0, 1]);
    expect(stepTrail(events, "s1")).toEqual([
      "step-start@1",
      "reflection",
      "step-error@1",
      "step-retry@2",
      "step-start@2",
      "step-end@2",
    ]);
    expect(events.find((event) => "stepId" in event && event.stepId === "s2")).toMatchObject({
      type: "step-skipped",
      code: "budget",
    });
  });

  it("counts the time an earlier process spent against the deadline", async () => {
    const { registry } = createTestRegistry();
    const steps = [tool("s1", "slow", { ms: 200 }), reply("s2", "ok")];
    const slow = {
      name: "slow",
      description: "Waits",
      inputSchema: { type: "object", properties: { ms: { type: "number" } } },
      annotations: { readOnlyHint: true },
      execute: async ({ ms }: Record<string, unknown>) =>
        new Promise((resolve) => setTimeout(() => resolve({ waited: ms }), Number(ms))),
    };
    registry.register([slow]);
    const make = () =>
      new AgentRuntime({
        planner: createFakePlanner({ steps }),
        registry,
        memory: false,
        budget: { deadlineMs: 1000 },
      });
    expect((await make().run("go").done).reason).toBe("completed");
    expect((await make().run("go", { elapsedMs: 950 }).done).reason).toBe("deadline");
  });

  it("refuses an executeStep that is not a function", () => {
    const { registry } = createTestRegistry();
    expect(
      () =>
        new AgentRuntime({
          planner: createFakePlanner({ steps: [] }),
          registry,
          executeStep: "yes" as unknown as StepExecutor,
        }),
    ).toThrow(/executeStep must be a function/);
  });
});
