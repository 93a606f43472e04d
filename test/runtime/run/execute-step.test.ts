/**
 * Handing a step to the step executor, on its own: what the executor is
 * told, what its `attempt` does (events, retries the policy allows, stale
 * attempts, fresh arguments), budgets, an application executor's answers
 * and replays, over a real default executor or a scripted one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../../src/errors/plankit-error.ts";
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import type { BackoffPolicy } from "../../../src/runtime/compute-backoff.ts";
import { type ExecutorSetup, executeStep } from "../../../src/runtime/run/execute-step.ts";
import { createRetryingExecutor } from "../../../src/runtime/run/retrying-executor.ts";
import { createRunResultCache } from "../../../src/runtime/run/run-result-cache.ts";
import type { StepEntry } from "../../../src/runtime/run/step-table.ts";
import type { StepCall, StepExecutor } from "../../../src/runtime/step-executor.ts";
import type { ToolPolicy } from "../../../src/runtime/tool-policy.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";
import { createPartRun, running, toolStep, typesOf } from "./part-fixtures.ts";

const backoff: BackoffPolicy = { initialMs: 100, factor: 2, maxMs: 5_000, jitter: 0 };
const instantSleep = async (): Promise<void> => undefined;

/**
 * A run whose tools `read` (read-only), `put` (idempotent) and `pay` each
 * fail their first `failures` calls with a tool error, then answer; every
 * call's arguments are recorded, and each call changes its own copy.
 */
function setup(
  options: {
    failures?: number;
    retries?: number;
    tools?: Record<string, ToolPolicy>;
    toolCalls?: number;
    error?: () => unknown;
  } = {},
) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const tool = (name: string, annotations: Record<string, boolean>) => ({
    name,
    inputSchema: { type: "object" },
    annotations,
    execute: (args: Record<string, unknown>) => {
      calls.push({ name, args: { ...args } });
      args["touched"] = true;
      if (calls.length <= (options.failures ?? 0)) throw options.error?.() ?? new Error(`${name} failed`);
      return { done: calls.length };
    },
  });
  const registry = new ToolRegistry().register([
    tool("read", { readOnlyHint: true }),
    tool("put", { idempotentHint: true }),
    tool("pay", {}),
  ]);
  const run = createPartRun({
    registry,
    retries: options.retries ?? 2,
    tools: options.tools ?? {},
    budget: options.toolCalls === undefined ? {} : { toolCalls: options.toolCalls },
  });
  const executorSetup = (
    executor: StepExecutor = createRetryingExecutor(() => 0, instantSleep),
    fromApplication = false,
  ) => ({ executor, fromApplication, backoff, results: run.table.results }) satisfies ExecutorSetup;
  return { ...run, calls, executorSetup };
}

const stepEvents = (events: RuntimeEvent[]) =>
  events.map((event) => {
    if (event.type === "step-start") return `start ${event.attempt}`;
    if (event.type === "step-error") return `error ${event.attempt}${event.final ? " final" : ""}`;
    if (event.type === "step-retry") return `retry ${event.attempt} after ${event.delayMs}`;
    return event.type;
  });

describe("executeStep: before the executor", () => {
  it("fails a step whose references fail without reaching the executor, counting and announcing the attempt", async () => {
    const { attemptContext, table, events, executorSetup } = setup();
    let called = false;
    const entry = running(table, toolStep("s2", "pay", { amount: "{{s1.total}}" }));
    const { outcome, durationMs } = await executeStep(
      attemptContext(),
      executorSetup(async () => ((called = true), { ok: true, value: 1, cached: false })),
      entry,
    );
    expect(called).toBe(false);
    expect(outcome).toMatchObject({ ok: false, error: { code: "unknown-reference" }, permanent: true });
    expect(durationMs).toBe(0);
    expect(entry.attempts).toBe(1);
    expect(events).toEqual([
      { runId: "r1", t: 0, type: "step-start", stepId: "s2", attempt: 1, cached: false, tool: "pay" },
    ]);
  });

  it("tells the executor the run, the step, its resolved input and what the policy allows", async () => {
    const { attemptContext, table, controller, executorSetup } = setup({ retries: 3, tools: { pay: { retries: 1 } } });
    table.succeed(running(table, toolStep("s1", "read")), { total: 12 });
    const seen: StepCall[] = [];
    const spy: StepExecutor = async (call) => (seen.push(call), { ok: true, value: null, cached: false });
    const read = running(table, { ...toolStep("s2", "read", { n: "{{s1.total}}" }), timeoutMs: 250 });
    read.attempts = 2;
    await executeStep(attemptContext(), executorSetup(spy), read);
    await executeStep(attemptContext(), executorSetup(spy), running(table, toolStep("s3", "pay")));
    await executeStep(attemptContext(), executorSetup(spy), running(table, { ...toolStep("s4", "put"), retries: 1 }));
    await executeStep(
      attemptContext(),
      executorSetup(spy),
      running(table, { id: "l1", type: "llm", prompt: "{{s1.total}}" }),
    );
    expect(seen[0]).toMatchObject({
      runId: "r1",
      step: read.step,
      input: { n: 12 },
      retries: 3,
      timeoutMs: 250,
      backoff,
      signal: controller.signal,
      repeatable: true,
      previousAttempts: 2,
    });
    expect(seen.map((call) => [call.step.id, call.retries, call.repeatable, call.timeoutMs])).toEqual([
      ["s2", 3, true, 250],
      ["s3", 1, true, 1_000],
      ["s4", 1, true, 1_000],
      ["l1", 3, true, 1_000],
    ]);
    expect(seen[3]?.input).toBe("12");
  });

  it("tells the executor a side-effecting tool without retries of its own is neither retried nor repeatable", async () => {
    const { attemptContext, table, executorSetup } = setup({ retries: 5 });
    let seen: StepCall | undefined;
    await executeStep(
      attemptContext(),
      executorSetup(async (call) => ((seen = call), { ok: true, value: null, cached: false })),
      running(table, toolStep("s1", "pay")),
    );
    expect([seen?.retries, seen?.repeatable]).toEqual([0, false]);
  });
});

describe("executeStep: with the default executor", () => {
  it("retries a read-only tool as the policy allows, announcing each failure and retry, until it succeeds", async () => {
    const { attemptContext, table, events, calls, executorSetup } = setup({ failures: 2, retries: 2 });
    const entry = running(table, toolStep("s1", "read", { q: 1 }));
    const { outcome } = await executeStep(attemptContext(), executorSetup(), entry);
    expect(outcome).toEqual({ ok: true, value: { done: 3 }, cached: false });
    expect(stepEvents(events)).toEqual([
      "start 1",
      "error 1",
      "retry 2 after 100",
      "start 2",
      "error 2",
      "retry 3 after 200",
      "start 3",
    ]);
    expect(events[2]).toMatchObject({ cause: "policy", stepId: "s1" });
    expect(events[1]).toMatchObject({ error: { code: "tool-error", message: "read failed" }, final: false });
    expect(entry.attempts).toBe(3);
    expect(calls.length).toBe(3);
  });

  it("gives up after the last retry the policy allows, leaving the final error to the caller", async () => {
    const { attemptContext, table, events, calls, executorSetup } = setup({ failures: 9, retries: 1 });
    const entry = running(table, toolStep("s1", "put"));
    const { outcome } = await executeStep(attemptContext(), executorSetup(), entry);
    expect(outcome).toEqual({ ok: false, error: { code: "tool-error", message: "put failed" }, permanent: true });
    expect(stepEvents(events)).toEqual(["start 1", "error 1", "retry 2 after 100", "start 2"]);
    expect(calls.length).toBe(2);
    expect(entry.error).toEqual({ code: "tool-error", message: "put failed" });
  });

  it("never retries a side-effecting tool on its own, but does when the application sets its retries", async () => {
    const plain = setup({ failures: 1, retries: 3 });
    const once = await executeStep(
      plain.attemptContext(),
      plain.executorSetup(),
      running(plain.table, toolStep("s1", "pay")),
    );
    expect(once.outcome).toMatchObject({ ok: false });
    expect(plain.calls.length).toBe(1);
    expect(stepEvents(plain.events)).toEqual(["start 1"]);
    const allowed = setup({ failures: 1, retries: 0, tools: { pay: { retries: 1 } } });
    const twice = await executeStep(
      allowed.attemptContext(),
      allowed.executorSetup(),
      running(allowed.table, toolStep("s1", "pay")),
    );
    expect(twice.outcome).toMatchObject({ ok: true });
    expect(allowed.calls.length).toBe(2);
  });

  it("lets a plan lower the retries, never raise them", async () => {
    const lowered = setup({ failures: 9, retries: 3 });
    await executeStep(
      lowered.attemptContext(),
      lowered.executorSetup(),
      running(lowered.table, { ...toolStep("s1", "read"), retries: 1 }),
    );
    expect(lowered.calls.length).toBe(2);
    const raised = setup({ failures: 9, retries: 1 });
    await executeStep(
      raised.attemptContext(),
      raised.executorSetup(),
      running(raised.table, { ...toolStep("s1", "read"), retries: 5 }),
    );
    expect(raised.calls.length).toBe(2);
  });

  it("does not retry an error another attempt cannot fix, even where retries are allowed", async () => {
    const { attemptContext, table, calls, events, executorSetup } = setup({
      retries: 3,
      failures: 9,
      error: () => new PlankitError("invalid-argument", "no such record"),
    });
    const { outcome } = await executeStep(attemptContext(), executorSetup(), running(table, toolStep("s1", "read")));
    expect(outcome).toEqual({
      ok: false,
      error: { code: "invalid-argument", message: "no such record" },
      permanent: true,
    });
    expect(stepEvents(events)).toEqual(["start 1"]);
    expect(calls.length).toBe(1);
    const unknown = await executeStep(attemptContext(), executorSetup(), running(table, toolStep("s2", "nope")));
    expect(unknown.outcome).toMatchObject({ ok: false, error: { code: "unknown-tool" }, permanent: true });
    expect(calls.length).toBe(1);
  });

  it("gives each attempt the planned arguments afresh, whatever the last attempt did to its copy", async () => {
    const { attemptContext, table, calls, executorSetup } = setup({ failures: 1, retries: 1 });
    await executeStep(attemptContext(), executorSetup(), running(table, toolStep("s1", "read", { q: 1 })));
    expect(calls.map((call) => call.args)).toEqual([{ q: 1 }, { q: 1 }]);
  });

  it("skips the step once the tool call budget refuses its first attempt", async () => {
    const { attemptContext, table, calls, executorSetup } = setup({ toolCalls: 0 });
    const { outcome } = await executeStep(attemptContext(), executorSetup(), running(table, toolStep("s1", "read")));
    expect(outcome).toEqual({ ok: "skip", code: "budget", reason: "The tool call budget of 0 is spent" });
    expect(calls).toEqual([]);
  });

  it("reports how long the last attempt took on the run's clock", async () => {
    const { attemptContext, table, clock, executorSetup } = setup();
    const slow: StepExecutor = async (call) => {
      const outcome = call.attempt();
      clock.advance(40);
      return outcome;
    };
    const { durationMs } = await executeStep(
      attemptContext(),
      executorSetup(slow),
      running(table, toolStep("s1", "read")),
    );
    expect(durationMs).toBe(40);
  });
});

describe("executeStep: an attempt that no longer counts", () => {
  it("is not made once the step was stopped, and one that ran is dropped", async () => {
    const { attemptContext, table, calls, events, executorSetup } = setup();
    const entry = running(table, toolStep("s1", "read"));
    const outcomes: unknown[] = [];
    const executor: StepExecutor = async (call) => {
      const first = call.attempt();
      entry.generation++;
      outcomes.push(await first);
      outcomes.push(await call.attempt());
      return { ok: false, error: { code: "aborted", message: "The run ended" }, retryable: false };
    };
    await executeStep(attemptContext(), executorSetup(executor), entry);
    const stopped = { ok: false, error: { code: "aborted", message: "The run ended" }, retryable: false };
    expect(outcomes).toEqual([stopped, stopped]);
    expect(calls.length).toBe(1);
    expect(typesOf(events)).toEqual(["step-start"]);
  });
});

describe("executeStep: an application's executor", () => {
  it("numbers attempts as the executor says and announces the delay it will wait", async () => {
    const { attemptContext, table, events, executorSetup } = setup({ failures: 1, retries: 1 });
    const entry = running(table, toolStep("s1", "read"));
    let first: unknown;
    const executor: StepExecutor = async (call) => {
      const outcome = await call.attempt({ number: 5, retryDelayMs: 1_234 });
      first = outcome;
      return outcome;
    };
    await executeStep(attemptContext(), executorSetup(executor, true), entry);
    expect(first).toMatchObject({ ok: false, retryable: false });
    // Attempt 5 is past the one retry the policy allows: no step-retry.
    expect(stepEvents(events)).toEqual(["start 5"]);
    expect(entry.attempts).toBe(5);
    const again = setup({ failures: 1, retries: 1 });
    await executeStep(
      again.attemptContext(),
      again.executorSetup(async (call) => call.attempt({ retryDelayMs: 1_234 }), true),
      running(again.table, toolStep("s1", "read")),
    );
    expect(stepEvents(again.events)).toEqual(["start 1", "error 1", "retry 2 after 1234"]);
  });

  it("snapshots and freezes the value it returns, and fails a value that cannot be copied", async () => {
    const { attemptContext, table, executorSetup } = setup();
    const value = { rows: [{ id: 1 }] };
    const { outcome } = await executeStep(
      attemptContext(),
      executorSetup(async () => ({ ok: true, value, cached: true }), true),
      running(table, toolStep("s1", "read")),
    );
    expect(outcome).toEqual({ ok: true, value: { rows: [{ id: 1 }] }, cached: true });
    const kept = (outcome as { value: typeof value }).value;
    expect(kept).not.toBe(value);
    expect(Object.isFrozen(kept.rows[0])).toBe(true);
    const broken = await executeStep(
      attemptContext(),
      executorSetup(async () => ({ ok: true, value: { run: () => 1 }, cached: false }), true),
      running(table, toolStep("s2", "read")),
    );
    expect(broken.outcome).toMatchObject({ ok: false, error: { code: "invalid-result" }, permanent: true });
  });

  it("passes the default executor's value on as it is: attempts already froze it", async () => {
    const { attemptContext, table, executorSetup } = setup();
    const value = { live: true };
    const { outcome } = await executeStep(
      attemptContext(),
      executorSetup(async () => ({ ok: true, value, cached: false }), false),
      running(table, toolStep("s1", "read")),
    );
    expect((outcome as { value: unknown }).value).toBe(value);
  });

  it("fails the step when the executor throws or answers nothing", async () => {
    const { attemptContext, table, executorSetup } = setup();
    const thrown = await executeStep(
      attemptContext(),
      executorSetup(async () => {
        throw new Error("engine down");
      }, true),
      running(table, toolStep("s1", "read")),
    );
    expect(thrown.outcome).toEqual({
      ok: false,
      error: { code: "tool-error", message: "engine down" },
      permanent: true,
    });
    const empty = await executeStep(
      attemptContext(),
      executorSetup((async () => undefined) as unknown as StepExecutor, true),
      running(table, toolStep("s2", "read")),
    );
    expect(empty.outcome).toEqual({
      ok: false,
      error: { code: "tool-error", message: 'The step executor returned no outcome for step "s2"' },
      permanent: true,
    });
  });

  it("skips the step the budget refused, whatever the executor makes of the refusal", async () => {
    const { attemptContext, table, executorSetup, calls } = setup({ toolCalls: 0 });
    const { outcome } = await executeStep(
      attemptContext(),
      executorSetup(async (call) => {
        await call.attempt();
        return { ok: false, error: { code: "tool-error", message: "engine gave up" }, retryable: false };
      }, true),
      running(table, toolStep("s1", "read")),
    );
    expect(outcome).toEqual({ ok: "skip", code: "budget", reason: "The tool call budget of 0 is spent" });
    expect(calls).toEqual([]);
  });

  it("skips the step when the executor reports a stored budget refusal", async () => {
    const { attemptContext, table, executorSetup } = setup();
    const { outcome } = await executeStep(
      attemptContext(),
      executorSetup(
        async () => ({
          ok: false,
          error: { code: "budget-exceeded", message: "spent earlier" },
          retryable: false,
          refused: true,
        }),
        true,
      ),
      running(table, toolStep("s1", "read")),
    );
    expect(outcome).toEqual({ ok: "skip", code: "budget", reason: "spent earlier" });
  });

  it("counts replayed attempts against the budgets as they ran, and the cache learns from a replayed read", async () => {
    const { attemptContext, table, limits, executorSetup, calls } = setup();
    const cache = createRunResultCache(undefined);
    const entry = running(table, toolStep("s1", "read", { q: 1 }));
    const second = running(table, toolStep("s2", "read"));
    const replay =
      (attempts: number, cached: boolean): StepExecutor =>
      async (call) => {
        call.replayed(attempts, cached);
        return { ok: true, value: { stored: true }, cached };
      };
    await executeStep(attemptContext({ cache }), executorSetup(replay(2.7, false), true), entry);
    expect(entry.attempts).toBe(2);
    expect(limits.usage).toMatchObject({ toolCalls: 2, cacheHits: 0 });
    expect(cache.get('read {"q":1}')).toEqual({ value: { stored: true } });
    await executeStep(attemptContext({ cache }), executorSetup(replay(0, true), true), second);
    // However few it reports, a replay stands for at least the attempt that made the outcome.
    expect(second.attempts).toBe(1);
    expect(limits.usage).toMatchObject({ toolCalls: 2, cacheHits: 1 });
    expect(calls).toEqual([]);
  });

  it("makes earlier reads stale when a side effect is replayed, failed or not", async () => {
    const { attemptContext, table, executorSetup } = setup();
    const cache = createRunResultCache(undefined);
    const replayedFailure: StepExecutor = async (call) => {
      call.replayed(1, false);
      return { ok: false, error: { code: "tool-error", message: "stored failure" }, retryable: false };
    };
    cache.set("read {}", "old", cache.epoch);
    await executeStep(
      attemptContext({ cache }),
      executorSetup(replayedFailure, true),
      running(table, toolStep("s1", "pay")),
    );
    expect(cache.get("read {}")).toBeUndefined();
    cache.set("read {}", "newer", cache.epoch);
    const replayedSuccess: StepExecutor = async (call) => (
      call.replayed(1, false), { ok: true, value: 1, cached: false }
    );
    await executeStep(
      attemptContext({ cache }),
      executorSetup(replayedSuccess, true),
      running(table, toolStep("s2", "pay")),
    );
    expect(cache.get("read {}")).toBeUndefined();
  });
});

describe("executeStep: the retry allowance", () => {
  it("never attempts a step more than its retries allow, and retries only what the policy lets repeat", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("read", "put", "pay"),
        fc.integer({ min: 0, max: 4 }),
        fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        fc.integer({ min: 0, max: 8 }),
        async (name, retries, toolRetries, planRetries, failures) => {
          const tools = toolRetries === undefined ? {} : { [name]: { retries: toolRetries } };
          const { attemptContext, table, calls, events, executorSetup, policy } = setup({ failures, retries, tools });
          const step =
            planRetries === undefined ? toolStep("s1", name) : { ...toolStep("s1", name), retries: planRetries };
          const entry: StepEntry = running(table, step);
          const { outcome } = await executeStep(attemptContext(), executorSetup(), entry);
          const allowed = toolRetries ?? (name === "pay" ? 0 : retries);
          const limit = Math.min(allowed, planRetries ?? allowed);
          expect(policy.retriesOf(step)).toBe(limit);
          expect(calls.length).toBe(Math.min(failures, limit) + 1);
          expect(outcome.ok).toBe(failures <= limit);
          expect(events.filter((event) => event.type === "step-retry").length).toBe(calls.length - 1);
          if (name === "pay" && toolRetries === undefined) expect(calls.length).toBe(1);
        },
      ),
    );
  });
});
