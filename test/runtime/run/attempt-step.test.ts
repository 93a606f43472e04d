/**
 * One attempt of a tool or llm step, on its own: the input it resolves,
 * the `step-start` it emits, the cache of read-only tools, the time limit
 * on a manual clock, the run's abort, budgets and the snapshot of results.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import type { PlanModel, PlanModelRequest } from "../../../src/model/plan-model.ts";
import type { CacheHit, ResultCache } from "../../../src/runtime/result-cache.ts";
import { type AttemptOutcome, attemptStep, resolveStepInput } from "../../../src/runtime/run/attempt-step.ts";
import { createRunResultCache } from "../../../src/runtime/run/run-result-cache.ts";
import type { ToolPolicy } from "../../../src/runtime/tool-policy.ts";
import { type ToolExecuteOptions, ToolRegistry } from "../../../src/tools/tool-registry.ts";
import { createPartRun, createRegistry, flush, running, toolStep, typesOf } from "./part-fixtures.ts";

type StepStart = Extract<RuntimeEvent, { type: "step-start" }>;

describe("resolveStepInput", () => {
  it("resolves a tool step's references into a fresh copy the tool may change", () => {
    const { table } = createPartRun();
    table.succeed(running(table, toolStep("s1", "read")), Object.freeze({ user: Object.freeze({ id: 7 }) }));
    const entry = running(table, toolStep("s2", "pay", { user: "{{s1.user}}", note: "for {{s1.user.id}}" }));
    const resolved = resolveStepInput(entry, table.results);
    expect(resolved).toEqual({ ok: true, input: { user: { id: 7 }, note: "for 7" } });
    const input = (resolved as { input: { user: { id: number } } }).input;
    input.user.id = 8;
    expect(table.results.get("s1")).toEqual({ user: { id: 7 } });
    expect(resolveStepInput(entry, table.results)).toMatchObject({ input: { user: { id: 7 } } });
  });

  it("uses a person's edited arguments in place of the planned ones, and lays a reflector's changes over them", () => {
    const { table } = createPartRun({ context: { city: "Oslo" } });
    const entry = running(table, toolStep("s1", "pay", { amount: 5, to: "ann" }));
    entry.edited = { amount: 3, to: "{{context.city}}" };
    expect(resolveStepInput(entry, table.results)).toEqual({ ok: true, input: { amount: 3, to: "Oslo" } });
    entry.overrides = { amount: 2 };
    expect(resolveStepInput(entry, table.results)).toEqual({ ok: true, input: { amount: 2, to: "Oslo" } });
    entry.edited = undefined;
    expect(resolveStepInput(entry, table.results)).toEqual({ ok: true, input: { amount: 2, to: "ann" } });
  });

  it("resolves an llm prompt to text, and fails on a reference nothing answers", () => {
    const { table } = createPartRun();
    table.succeed(running(table, toolStep("s1", "read")), { rows: [1, 2] });
    const whole = running(table, { id: "l1", type: "llm", prompt: "{{s1}}" });
    const inline = running(table, { id: "l2", type: "llm", prompt: "Count {{s1.rows}}" });
    expect(resolveStepInput(whole, table.results)).toEqual({ ok: true, input: '{"rows":[1,2]}' });
    expect(resolveStepInput(inline, table.results)).toMatchObject({
      ok: true,
      input: expect.stringContaining("Count"),
    });
    const missing = running(table, toolStep("s3", "pay", { x: "{{s9.y}}" }));
    const failed = resolveStepInput(missing, table.results);
    expect(failed).toMatchObject({ ok: false, error: { code: "unknown-reference" } });
  });
});

/** A registry whose tool `name` runs `execute`, recording each call's arguments and options. */
function toolRegistry(
  execute: (args: Record<string, unknown>, signal: AbortSignal | undefined) => unknown,
  readOnly: boolean,
) {
  const calls: { args: Record<string, unknown>; callId: string | undefined; signal: AbortSignal | undefined }[] = [];
  const registry = new ToolRegistry().register([
    {
      name: "tool",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      annotations: { readOnlyHint: readOnly },
      execute: (args: Record<string, unknown>, options: ToolExecuteOptions) => {
        calls.push({ args, callId: options.callId, signal: options.signal });
        return execute(args, options.signal);
      },
    },
  ]);
  return { registry, calls };
}

function toolRun(
  execute: (args: Record<string, unknown>, signal: AbortSignal | undefined) => unknown,
  options: { readOnly?: boolean; tools?: Record<string, ToolPolicy>; toolCalls?: number; timeoutMs?: number } = {},
) {
  const { registry, calls } = toolRegistry(execute, options.readOnly ?? true);
  const run = createPartRun({
    registry,
    tools: options.tools ?? {},
    timeoutMs: options.timeoutMs ?? 1_000,
    budget: options.toolCalls === undefined ? {} : { toolCalls: options.toolCalls },
  });
  return { ...run, calls };
}

describe("attemptStep: a tool", () => {
  it("announces the attempt, calls the tool with its run-wide call id, counts it and freezes the result", async () => {
    const { attemptContext, table, events, calls, limits } = toolRun((args) => ({ got: args }));
    const entry = running(table, toolStep("s1", "tool", { n: 1 }));
    const outcome = await attemptStep(attemptContext(), entry, { n: 1 }, 3);
    expect(outcome).toEqual({ ok: true, value: { got: { n: 1 } }, cached: false });
    expect(Object.isFrozen((outcome as { value: { got: object } }).value.got)).toBe(true);
    expect(events).toEqual([
      { runId: "r1", t: 0, type: "step-start", stepId: "s1", attempt: 3, tool: "tool", input: { n: 1 }, cached: false },
    ]);
    expect(calls.map((call) => call.callId)).toEqual(["r1:s1:3"]);
    expect(limits.usage.toolCalls).toBe(1);
    expect(entry.lastInput).toEqual({ n: 1 });
  });

  it("announces a frozen copy of the input, which the tool's changes to its arguments do not reach", async () => {
    const { attemptContext, table, events } = toolRun((args) => {
      args["n"] = 99;
      return null;
    });
    const input = { n: 1 };
    await attemptStep(attemptContext(), running(table, toolStep("s1", "tool")), input, 1);
    const announced = (events[0] as StepStart).input as { n: number };
    expect(announced).toEqual({ n: 1 });
    expect(Object.isFrozen(announced)).toBe(true);
  });

  it("fails with invalid-result, permanently, when the result cannot be copied", async () => {
    const { attemptContext, table } = toolRun(() => ({ run: () => 1 }));
    const outcome = await attemptStep(attemptContext(), running(table, toolStep("s1", "tool")), {}, 1);
    expect(outcome).toMatchObject({ ok: false, error: { code: "invalid-result" }, permanent: true });
    expect((outcome as { error: { message: string } }).error.message).toContain('step "s1"');
  });

  it("tells a failure another attempt may fix from one it cannot", async () => {
    const { attemptContext, table } = toolRun(() => {
      throw new Error("503");
    });
    const context = attemptContext();
    expect(await attemptStep(context, running(table, toolStep("s1", "tool")), {}, 1)).toEqual({
      ok: false,
      error: { code: "tool-error", message: "503" },
      permanent: false,
    });
    expect(await attemptStep(context, running(table, toolStep("s2", "tool")), { n: "one" }, 1)).toMatchObject({
      ok: false,
      error: { code: "invalid-argument" },
      permanent: true,
    });
    expect(await attemptStep(context, running(table, toolStep("s3", "nope")), {}, 1)).toMatchObject({
      ok: false,
      error: { code: "unknown-tool" },
      permanent: true,
    });
  });

  it("skips the call, announcing nothing, once the tool call budget is spent", () => {
    const { attemptContext, table, events, calls, limits } = toolRun(() => "x", { toolCalls: 0 });
    const outcome = attemptStep(attemptContext(), running(table, toolStep("s1", "tool")), {}, 1);
    // A refusal returns synchronously.
    expect(outcome).toEqual({ ok: "skip", code: "budget", reason: "The tool call budget of 0 is spent" });
    expect(events).toEqual([]);
    expect(calls).toEqual([]);
    expect(limits.hit).toBe(true);
  });

  it("fails as a timeout that may be retried when the step's time limit passes, aborting the tool's signal", async () => {
    const { attemptContext, table, calls, clock } = toolRun(() => new Promise(() => undefined), { timeoutMs: 500 });
    const step = { ...toolStep("s1", "tool"), timeoutMs: 200 };
    let outcome: AttemptOutcome | undefined;
    void Promise.resolve(attemptStep(attemptContext(), running(table, step), {}, 1)).then((value) => (outcome = value));
    await flush();
    clock.advance(199);
    await flush();
    expect(outcome).toBeUndefined();
    expect(calls[0]?.signal?.aborted).toBe(false);
    clock.advance(1);
    await flush();
    expect(outcome).toEqual({
      ok: false,
      error: { code: "timeout", message: 'Step "s1" timed out after 200 ms' },
      permanent: false,
    });
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(clock.timers).toBe(0);
  });

  it("fails as aborted, permanently, when the run is aborted during the call", async () => {
    const { attemptContext, table, calls, controller, clock } = toolRun(() => new Promise(() => undefined));
    const pending = attemptStep(attemptContext(), running(table, toolStep("s1", "tool")), {}, 1);
    await flush();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: "aborted" }, permanent: true });
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(clock.timers).toBe(0);
  });
});

describe("attemptStep: the cache", () => {
  it("serves an identical read-only call from the run's cache, synchronously, counting a cache hit", async () => {
    const { attemptContext, table, events, calls, limits } = toolRun(() => ({ rows: [1] }));
    const context = attemptContext({ cache: createRunResultCache(undefined) });
    await attemptStep(context, running(table, toolStep("s1", "tool", { n: 1 })), { n: 1 }, 1);
    const hit = attemptStep(context, running(table, toolStep("s2", "tool", { n: 1 })), { n: 1 }, 1);
    expect(hit).toEqual({ ok: true, value: { rows: [1] }, cached: true });
    expect(calls.length).toBe(1);
    expect(limits.usage).toMatchObject({ toolCalls: 1, cacheHits: 1 });
    expect(events.at(-1)).toEqual({
      runId: "r1",
      t: 0,
      type: "step-start",
      stepId: "s2",
      attempt: 1,
      tool: "tool",
      input: { n: 1 },
      cached: true,
    });
    // Other arguments are another call.
    await attemptStep(context, running(table, toolStep("s3", "tool", { n: 2 })), { n: 2 }, 1);
    expect(calls.length).toBe(2);
  });

  it("never serves a side-effecting tool from the cache, and forgets what was read once one ends", async () => {
    const { registry, calls } = createRegistry();
    const { attemptContext, table } = createPartRun({ registry });
    const context = attemptContext({ cache: createRunResultCache(undefined) });
    const attempt = (id: string, name: string) => attemptStep(context, running(table, toolStep(id, name)), {}, 1);
    await attempt("s1", "read");
    await attempt("s2", "read");
    await attempt("s3", "pay");
    await attempt("s4", "pay");
    await attempt("s5", "read");
    expect(calls).toEqual(["read", "pay", "pay", "read"]);
  });

  it("does not cache a read-only tool whose policy turns caching off", async () => {
    const { attemptContext, table, calls } = toolRun(() => 1, { tools: { tool: { cache: false } } });
    const context = attemptContext({ cache: createRunResultCache(undefined) });
    await attemptStep(context, running(table, toolStep("s1", "tool")), {}, 1);
    await attemptStep(context, running(table, toolStep("s2", "tool")), {}, 1);
    expect(calls.length).toBe(2);
  });

  it("makes what was read stale again when a side-effecting tool that ignored its time limit lands", async () => {
    let land = (): void => undefined;
    const { attemptContext, table, clock } = toolRun(
      () =>
        new Promise((resolve) => {
          land = () => resolve("late");
        }),
      { readOnly: false, timeoutMs: 50 },
    );
    const cache = createRunResultCache(undefined);
    const pending = attemptStep(attemptContext({ cache }), running(table, toolStep("s1", "tool")), {}, 1);
    await flush();
    const before = cache.epoch;
    clock.advance(50);
    expect(await pending).toMatchObject({ ok: false, error: { code: "timeout" } });
    expect(cache.epoch).toBe(before + 1);
    cache.set("read {}", "seen", cache.epoch);
    land();
    await flush();
    expect(cache.epoch).toBe(before + 2);
    expect(cache.get("read {}")).toBeUndefined();
  });

  it("reads a shared cache that answers later, and calls nothing for a step stopped meanwhile", async () => {
    let answer = (_hit: CacheHit | undefined): void => undefined;
    const shared: ResultCache = {
      get: () =>
        new Promise<CacheHit | undefined>((resolve) => {
          answer = resolve;
        }),
      set: () => undefined,
    };
    const { attemptContext, table, calls, events } = toolRun(() => "fresh");
    let current = true;
    const context = attemptContext({ cache: createRunResultCache(shared), isCurrent: () => current });
    const first = attemptStep(context, running(table, toolStep("s1", "tool")), {}, 1);
    answer({ value: { from: "shared" } });
    expect(await first).toEqual({ ok: true, value: { from: "shared" }, cached: true });
    const second = attemptStep(context, running(table, toolStep("s2", "tool", { n: 2 })), { n: 2 }, 1);
    current = false;
    answer(undefined);
    expect(await second).toEqual({ ok: "skip", code: "aborted", reason: "The run ended" });
    expect(calls).toEqual([]);
    expect(typesOf(events)).toEqual(["step-start"]);
  });

  it("calls the tool when a cached value cannot be copied", async () => {
    const shared: ResultCache = { get: () => ({ value: { run: () => 1 } }), set: () => undefined };
    const { attemptContext, table, calls, limits } = toolRun(() => "fresh");
    const context = attemptContext({ cache: createRunResultCache(shared) });
    expect(await attemptStep(context, running(table, toolStep("s1", "tool")), {}, 1)).toEqual({
      ok: true,
      value: "fresh",
      cached: false,
    });
    expect(calls.length).toBe(1);
    expect(limits.usage.cacheHits).toBe(0);
  });
});

/** A model that answers `text` (and `reason`), recording its requests; `hang` never answers. */
function scriptedModel(text: string, reason: "stop" | "error" | "hang" = "stop") {
  const requests: PlanModelRequest[] = [];
  const model: PlanModel = {
    async *stream(request) {
      requests.push(request);
      if (reason === "hang") await new Promise(() => undefined);
      yield { type: "text", text };
      yield { type: "finish", reason: reason === "error" ? "error" : "stop" };
    },
  };
  return { model, requests };
}

describe("attemptStep: an llm step", () => {
  it("announces the prompt and answers the model's text", async () => {
    const { attemptContext, table, events } = createPartRun();
    const { model, requests } = scriptedModel("Two rows.");
    const outcome = await attemptStep(
      attemptContext({ model }),
      running(table, { id: "l1", type: "llm", prompt: "p" }),
      "Count",
      2,
    );
    expect(outcome).toEqual({ ok: true, value: "Two rows.", cached: false });
    expect(events).toEqual([
      { runId: "r1", t: 0, type: "step-start", stepId: "l1", attempt: 2, input: "Count", cached: false },
    ]);
    expect(requests).toMatchObject([{ purpose: "llm-step", prompt: "Count" }]);
  });

  it("fails permanently without a model, after announcing the attempt", async () => {
    const { attemptContext, table, events } = createPartRun();
    const outcome = await attemptStep(attemptContext(), running(table, { id: "l1", type: "llm", prompt: "p" }), "p", 1);
    expect(outcome).toEqual({
      ok: false,
      error: { code: "model-error", message: 'Step "l1" needs a model and the runtime has none' },
      permanent: true,
    });
    expect(typesOf(events)).toEqual(["step-start"]);
  });

  it("fails as a model error, which may be retried, when the model's answer ends in an error", async () => {
    const { attemptContext, table } = createPartRun();
    const { model } = scriptedModel("half", "error");
    expect(
      await attemptStep(attemptContext({ model }), running(table, { id: "l1", type: "llm", prompt: "p" }), "p", 1),
    ).toEqual({
      ok: false,
      error: { code: "model-error", message: 'The model failed while answering step "l1"' },
      permanent: false,
    });
  });

  it("skips the call, announcing nothing, once the model call budget is spent", async () => {
    const { attemptContext, table, events } = createPartRun({ budget: { modelCalls: 0 } });
    const { model, requests } = scriptedModel("x");
    const outcome = attemptStep(
      attemptContext({ model }),
      running(table, { id: "l1", type: "llm", prompt: "p" }),
      "p",
      1,
    );
    expect(outcome).toEqual({ ok: "skip", code: "budget", reason: "The model call budget of 0 is spent" });
    expect(events).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("fails as a timeout when the model does not answer within the step's time limit", async () => {
    const { attemptContext, table, clock } = createPartRun({ timeoutMs: 300 });
    const { model, requests } = scriptedModel("x", "hang");
    const pending = attemptStep(
      attemptContext({ model }),
      running(table, { id: "l1", type: "llm", prompt: "p" }),
      "p",
      1,
    );
    await flush();
    clock.advance(300);
    expect(await pending).toEqual({
      ok: false,
      error: { code: "timeout", message: 'Step "l1" timed out after 300 ms' },
      permanent: false,
    });
    expect(requests[0]?.signal?.aborted).toBe(true);
  });
});
