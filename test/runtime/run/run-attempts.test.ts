/**
 * A step's attempts on their own: the executor, the reflector's say on a
 * failure, the budget, the run's end and a stopped step — over a small run
 * core whose scheduler starts each step with `runAttempts`.
 */
import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import type { Reflection } from "../../../src/planner/reflector.ts";
import {
  createStepAttempts,
  runAttempts,
  type StepAttempts,
  stopAttempt,
} from "../../../src/runtime/run/run-attempts.ts";
import type { RunConfig } from "../../../src/runtime/run/run-core.ts";
import type { StepEntry } from "../../../src/runtime/run/step-table.ts";
import { deferred, tool } from "../fake-planner.ts";
import { createFakeClock } from "./fake-clock.ts";
import { planSource } from "./part-fixtures.ts";
import { createPhaseCore, createTools, settle, type ToolBehaviour } from "./phase-fixtures.ts";

/**
 * A core whose scheduler hands each started step to `runAttempts`, and
 * outcomes that record what they are told (and apply it to the table, as
 * the run does).
 */
function setup(
  overrides: Partial<RunConfig> = {},
  tools: Record<string, ToolBehaviour> = {},
  reflect?: () => Reflection | undefined,
) {
  // `lookup` is read-only, so it may be repeated; `pay` is not.
  const { registry, calls } = createTools(tools, ["lookup"]);
  const outcomes: string[] = [];
  const values: unknown[] = [];
  const running: Promise<void>[] = [];
  let attempts: StepAttempts | undefined;
  const reflector = reflect === undefined ? undefined : { reflect };
  const run = createPhaseCore(
    { registry, reflector, ...overrides },
    {
      start: (entry) => running.push(runAttempts(attempts as StepAttempts, entry)),
      // As the run does: a change moves the run on, starting what is ready.
      settle: () => run.scheduler.pump(),
    },
  );
  attempts = createStepAttempts(run.core, undefined, {
    succeeded: (entry, value, attempt, _durationMs, cached) => {
      outcomes.push(`succeeded ${entry.step.id} #${attempt}${cached ? " cached" : ""}`);
      values.push(value);
      run.scheduler.succeeded(run.table.succeed(entry, value));
    },
    failed: (entry, error, attempt) => {
      outcomes.push(`failed ${entry.step.id} #${attempt} ${error.code}: ${error.message}`);
      entry.status = "failed";
      run.scheduler.ended(entry);
    },
    stop: (message) => outcomes.push(`stop: ${message}`),
  });
  /** Plans the steps and starts what is ready. */
  const plan = (...steps: PlanStep[]): StepEntry[] => {
    const entries = steps.map((step) => run.table.add(step, planSource()));
    for (const entry of entries) run.scheduler.consider(entry);
    run.scheduler.pump();
    return entries;
  };
  /** Waits until every attempt begun so far has ended. */
  const finish = async (): Promise<void> => {
    for (let index = 0; index < running.length; index++) await running[index];
    await settle();
  };
  return { ...run, calls, outcomes, values, plan, finish, attempts: attempts as StepAttempts };
}

const failing =
  (message: string): ToolBehaviour =>
  () => {
    throw new Error(message);
  };

describe("runAttempts", () => {
  it("calls the tool in the tick the step started, and hands its frozen result over with one slot freed", async () => {
    const { plan, calls, finish, outcomes, values, scheduler, settles, types } = setup();
    plan(tool("s1", "read", { city: "Paris" }));
    expect(calls.map((call) => call.args)).toEqual([{ city: "Paris" }]);
    expect(scheduler.running).toBe(1);
    await finish();
    expect(outcomes).toEqual(["succeeded s1 #1"]);
    expect(values[0]).toEqual({ city: "Paris" });
    expect(Object.isFrozen(values[0])).toBe(true);
    expect(scheduler.running).toBe(0);
    expect(settles()).toBe(1);
    expect(types()).toEqual(["step-start"]);
  });

  it("fails a step for good with its error when no reflector has a say", async () => {
    const { plan, finish, outcomes, types, scheduler, settles } = setup({}, { lookup: failing("not found") });
    plan(tool("s1", "lookup"));
    await finish();
    expect(outcomes).toEqual(["failed s1 #1 tool-error: not found"]);
    expect(types()).toEqual(["step-start"]);
    expect(scheduler.running).toBe(0);
    expect(settles()).toBe(1);
  });

  it("follows a reflector's retry of a step that may repeat: the step goes back to the scheduler and runs with the changed arguments", async () => {
    const { plan, finish, outcomes, events, table, calls } = setup(
      {},
      { lookup: (args) => (args.page === 2 ? { found: true } : failing("empty page")(args, undefined)) },
      () => ({ action: "retry", reason: "try page 2", arguments: { page: 2 } }),
    );
    plan(tool("s1", "lookup", { page: 1, q: "x" }));
    await finish();
    expect(calls.map((call) => call.args)).toEqual([
      { page: 1, q: "x" },
      { page: 2, q: "x" },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      "step-start",
      "reflection",
      "step-error",
      "step-retry",
      "step-start",
    ]);
    expect(events[1]).toMatchObject({ action: "retry", reason: "try page 2", arguments: { page: 2 } });
    expect(Object.hasOwn(events[1] ?? {}, "refused")).toBe(false);
    expect(events[2]).toMatchObject({ attempt: 1, final: false, error: { message: "empty page" } });
    expect(events[3]).toMatchObject({ attempt: 2, cause: "reflection", delayMs: 0, arguments: { page: 2 } });
    expect(events[4]).toMatchObject({ attempt: 2, input: { page: 2, q: "x" } });
    expect(outcomes).toEqual(["succeeded s1 #2"]);
    expect(table.get("s1")).toMatchObject({ reflections: 1, overrides: { page: 2 } });
  });

  it("refuses a reflector's retry of a step that may have acted: the reflection says why, and the step fails", async () => {
    const { plan, finish, outcomes, events, calls } = setup({}, { pay: failing("gateway timeout") }, () => ({
      action: "retry",
      reason: "try again",
      arguments: { amount: 6 },
    }));
    plan(tool("s1", "pay", { amount: 5 }));
    await finish();
    expect(calls).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual(["step-start", "reflection"]);
    expect(events[1]).toMatchObject({
      action: "retry",
      arguments: { amount: 6 },
      refused:
        'Step "s1" may have acted and its tool is neither read-only nor idempotent: it is not run again; a re-plan may replace it',
    });
    expect(outcomes).toEqual(["failed s1 #1 tool-error: gateway timeout"]);
  });

  it("fails the step and stops the run on a reflector's abort, naming the step and the reason", async () => {
    const withReason = setup({}, { lookup: failing("gone") }, () => ({ action: "abort", reason: "the data is gone" }));
    withReason.plan(tool("s1", "lookup"));
    await withReason.finish();
    expect(withReason.outcomes).toEqual([
      "failed s1 #1 tool-error: gone",
      'stop: A reflector stopped the run after step "s1" failed: the data is gone',
    ]);
    expect(withReason.events.at(-1)).toMatchObject({ type: "reflection", action: "abort" });

    const without = setup({}, { lookup: failing("gone") }, () => ({ action: "abort", reason: "" }));
    without.plan(tool("s1", "lookup"));
    await without.finish();
    expect(without.outcomes.at(-1)).toBe('stop: A reflector stopped the run after step "s1" failed');
  });

  it("reports a reflector's new_plan and fails the step for a re-plan to deal with", async () => {
    const { plan, finish, outcomes, events, settles } = setup({}, { lookup: failing("gone") }, () => ({
      action: "new_plan",
      reason: "another source",
    }));
    plan(tool("s1", "lookup"));
    await finish();
    expect(events.at(-1)).toMatchObject({ type: "reflection", action: "new_plan", reason: "another source" });
    expect(outcomes).toEqual(["failed s1 #1 tool-error: gone"]);
    expect(settles()).toBe(1);
  });

  it("skips a step the budget refuses on its first attempt, and what needs it; a later attempt refused fails", async () => {
    const first = setup({ budget: { toolCalls: 0 } });
    first.plan(tool("s1", "read"), tool("s2", "read", { x: "{{s1}}" }));
    await first.finish();
    expect(first.calls).toHaveLength(0);
    expect(first.outcomes).toEqual([]);
    expect(
      first.events.map((event) =>
        event.type === "step-skipped" ? `${event.stepId} ${event.code}: ${event.reason}` : "",
      ),
    ).toEqual([
      "s1 budget: The tool call budget of 0 is spent",
      's2 dependency-failed: It depends on step "s1", which was skipped',
    ]);
    expect(first.scheduler.running).toBe(0);

    const later = setup({ budget: { toolCalls: 1 } }, { lookup: failing("empty") }, () => ({
      action: "retry",
      reason: "again",
    }));
    later.plan(tool("s1", "lookup"));
    await later.finish();
    expect(later.outcomes).toEqual(["failed s1 #2 budget-exceeded: The tool call budget of 1 is spent"]);
    expect(later.events.some((event) => event.type === "step-skipped")).toBe(false);
  });

  it("drops an outcome that arrives after the run ended or after the step was stopped", async () => {
    const late = deferred<unknown>();
    const ended = setup({}, { slow: () => late.promise });
    ended.plan(tool("s1", "slow"));
    await settle();
    ended.end();
    late.resolve({ done: true });
    await ended.finish();
    expect(ended.outcomes).toEqual([]);
    expect(ended.settles()).toBe(0);
    expect(ended.scheduler.running).toBe(1);

    const later = deferred<unknown>();
    const stopped = setup({}, { slow: () => later.promise });
    const [entry] = stopped.plan(tool("s1", "slow"));
    await settle();
    stopAttempt(stopped.core, entry as StepEntry, { code: "aborted", message: "The run was aborted" });
    later.resolve({ done: true });
    await stopped.finish();
    expect(stopped.outcomes).toEqual([]);
    expect(stopped.settles()).toBe(0);

    // An application's executor may answer whatever happened meanwhile: its late answer is dropped too.
    for (const how of ["ended", "stopped"]) {
      const answer = deferred<{ ok: true; value: unknown; cached: boolean }>();
      const durable = setup({ executeStep: () => answer.promise });
      const [step] = durable.plan(tool("s1", "read"));
      await settle();
      if (how === "ended") durable.end();
      else stopAttempt(durable.core, step as StepEntry, { code: "aborted", message: "stopped" });
      answer.resolve({ ok: true, value: 1, cached: false });
      await durable.finish();
      expect(durable.outcomes).toEqual([]);
    }

    // The step counts as running while the reflector thinks; the run may end meanwhile.
    const verdict = deferred<Reflection | undefined>();
    const thinking = setup({}, { lookup: failing("gone") });
    thinking.core.config.reflector = { reflect: () => verdict.promise };
    thinking.plan(tool("s1", "lookup"));
    await settle();
    expect(thinking.scheduler.running).toBe(1);
    thinking.end();
    verdict.resolve({ action: "new_plan", reason: "late" });
    await thinking.finish();
    expect(thinking.outcomes).toEqual([]);
    expect(thinking.types()).toEqual(["step-start"]);
  });

  it("fails an attempt that passes the step's time limit on the run's clock", async () => {
    const clock = createFakeClock();
    const { plan, finish, outcomes, calls } = setup(
      { clock, timeoutMs: 50 },
      { slow: () => new Promise(() => undefined) },
    );
    plan(tool("s1", "slow"));
    await settle();
    clock.advance(49);
    await settle();
    expect(outcomes).toEqual([]);
    clock.advance(1);
    await finish();
    expect(outcomes).toEqual(['failed s1 #1 timeout: Step "s1" timed out after 50 ms']);
    expect(calls[0]?.signal?.aborted).toBe(true);
  });
});

describe("stopAttempt", () => {
  it("fails a running step for good with the run's error, and makes its attempt's outcome stale", () => {
    const { core, table, events } = createPhaseCore();
    const entry = table.add(tool("s1", "read"), planSource());
    entry.status = "running";
    const error = { code: "timeout", message: "The run passed its deadline of 100 ms" };
    stopAttempt(core, entry, error);
    expect(entry).toMatchObject({ status: "failed", error, generation: 1 });
    expect(events).toEqual([
      { type: "step-error", runId: "r1", t: 0, stepId: "s1", attempt: 1, error, final: true, durationMs: 0 },
    ]);
    entry.attempts = 3;
    stopAttempt(core, entry, error);
    expect(events.at(-1)).toMatchObject({ attempt: 3 });
    expect(entry.generation).toBe(2);
  });
});

describe("createStepAttempts", () => {
  it("reuses a read within the run only when caching is on", async () => {
    const cached = setup();
    cached.plan(tool("s1", "read", { q: 1 }));
    await cached.finish();
    cached.plan(tool("s2", "read", { q: 1 }));
    await cached.finish();
    expect(cached.calls).toHaveLength(1);
    expect(cached.outcomes).toEqual(["succeeded s1 #1", "succeeded s2 #1 cached"]);
    expect(cached.attempts.attempt.cache).toBeDefined();

    const uncached = setup({ caching: false });
    uncached.plan(tool("s1", "read", { q: 1 }));
    await uncached.finish();
    uncached.plan(tool("s2", "read", { q: 1 }));
    await uncached.finish();
    expect(uncached.calls).toHaveLength(2);
    expect(uncached.attempts.attempt.cache).toBeUndefined();
  });

  it("hands steps to the application's executor, snapshots what it returns, and tells it when an attempt no longer counts", async () => {
    const returned = { items: [1, 2] };
    let seen: { runId: string; stepId: string; repeatable: boolean } | undefined;
    const { plan, finish, values, outcomes, attempts, table, end } = setup({
      executeStep: async (call) => {
        seen = { runId: call.runId, stepId: call.step.id, repeatable: call.repeatable };
        return { ok: true, value: returned, cached: false };
      },
    });
    plan(tool("s1", "pay"));
    await finish();
    expect(seen).toEqual({ runId: "r1", stepId: "s1", repeatable: false });
    expect(outcomes).toEqual(["succeeded s1 #1"]);
    expect(values[0]).toEqual(returned);
    expect(values[0]).not.toBe(returned);
    expect(Object.isFrozen(values[0])).toBe(true);
    expect(attempts.executor.fromApplication).toBe(true);
    const entry = table.get("s1") as StepEntry;
    expect(attempts.attempt.isCurrent(entry, entry.generation)).toBe(true);
    expect(attempts.attempt.isCurrent(entry, entry.generation - 1)).toBe(false);
    end();
    expect(attempts.attempt.isCurrent(entry, entry.generation)).toBe(false);
  });
});
