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
