/**
 * The parts of a run, each on its own: the plan's turns and outcomes, the
 * guarded model, approvals, re-planning and the reply, over a small run core.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent, StepSkipCode } from "../../../src/events/runtime-event.ts";
import type { PlanModel } from "../../../src/model/plan-model.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { Approvals } from "../../../src/runtime/run/approvals.ts";
import { guardModel } from "../../../src/runtime/run/guard-model.ts";
import { Replanning } from "../../../src/runtime/run/replanning.ts";
import { Replies } from "../../../src/runtime/run/replies.ts";
import type { RunConfig, RunCore } from "../../../src/runtime/run/run-core.ts";
import type { RunPhase } from "../../../src/runtime/run/run-phase.ts";
import { createSafetyPolicy } from "../../../src/runtime/run/safety-policy.ts";
import { Scheduler } from "../../../src/runtime/run/scheduler.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { type StepEntry, StepTable } from "../../../src/runtime/run/step-table.ts";
import { Turns } from "../../../src/runtime/run/turns.ts";
import { UsageLimits } from "../../../src/runtime/run/usage-limits.ts";
import { systemClock } from "../../../src/shared/runtime-clock.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";

const registry = new ToolRegistry().register([
  { name: "read", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => null },
  { name: "pay", inputSchema: { type: "object" }, execute: () => null },
]);

/** A run core over a real table, policy, limits and scheduler, recording what the part does. */
function createCore(options: { tools?: RunConfig["policy"]; maxReplans?: number } = {}) {
  const table = new StepTable({});
  const policy = createSafetyPolicy({
    registry,
    eager: "safe",
    retries: 0,
    timeoutMs: 1_000,
    tools: options.tools ?? {},
  });
  const limits = new UsageLimits({}, options.maxReplans ?? 1);
  const events: RuntimeEvent[] = [];
  const skipped: [string, StepSkipCode][] = [];
  let ended = false;
  let settles = 0;
  const scheduler = new Scheduler(table, {
    view: {
      statusOf: (id) => table.get(id)?.status,
      mayBeReplanned: () => false,
      planEnded: true,
      othersSettled: true,
    },
    maxConcurrency: 10,
    refuseStart: () => undefined,
    start: () => undefined,
    safety: (entry) => policy.verdictOf(entry.step, entry.source, entry.approval),
    reply: () => undefined,
    skip: (entry, code) => {
      entry.status = "skipped";
      skipped.push([entry.step.id, code]);
    },
    holdForApproval: () => false,
  });
  const config = {
    registry,
    clock: systemClock,
    approvalTimeoutMs: undefined,
    replyStreaming: "early",
    modelTimeouts: { idleMs: 1_000, totalMs: 1_000 },
  } as unknown as RunConfig;
  const core: RunCore = {
    config,
    input: { runId: "r1", query: "q", history: "", context: {} },
    table,
    policy,
    limits,
    scheduler,
    signal: new AbortController().signal,
    emit: (event) => events.push({ runId: "r1", t: 0, ...event } as RuntimeEvent),
    isEnded: () => ended,
    settle: () => {
      settles++;
    },
    skip: (entry, code) => {
      entry.status = "skipped";
      entry.skipCode = code;
      skipped.push([entry.step.id, code]);
    },
  };
  return { core, table, events, skipped, end: () => (ended = true), settles: () => settles };
}

const tool = (id: string, name: string, args: Record<string, unknown> = {}): PlanStep => ({
  id,
  type: "tool",
  name,
  arguments: args,
});

describe("Turns", () => {
  it("ends each turn's source and opens the next", () => {
    const turns = new Turns();
    const first = turns.source;
    expect(turns.next(true)).toBe(first);
    expect(first.state).toBe("clean");
    expect(turns.source).toMatchObject({ kind: "plan", attempt: 2, state: "streaming" });
    expect(turns.next(false).state).toBe("unclean");
  });

  it("answers a planner once every step it waits for has an outcome, and everyone once the run ended", async () => {
    const turns = new Turns();
    let answered: unknown;
    void turns.outcomesOf(["s1", "s2"], false).then((outcomes) => (answered = outcomes));
    turns.record(
      { type: "step-end", runId: "r", t: 0, stepId: "s1", attempt: 1, result: 7, durationMs: 0, cached: false },
      false,
    );
    await Promise.resolve();
    expect(answered).toBeUndefined();
    turns.record({ type: "step-skipped", runId: "r", t: 0, stepId: "s2", code: "denied", reason: "no" }, false);
    await Promise.resolve();
    expect(answered).toEqual([
      { id: "s1", status: "succeeded", result: 7 },
      { id: "s2", status: "skipped", reason: "no" },
    ]);
    const late = turns.outcomesOf(["s9"], false);
    turns.deliver(true);
    await expect(late).resolves.toEqual([{ id: "s9", status: "skipped", reason: "The run ended" }]);
  });
});

describe("guardModel", () => {
  it("refuses a call past the model-call budget and counts the tokens of one that ran", async () => {
    const limits = new UsageLimits({ modelCalls: 1 }, 0);
    const model: PlanModel = {
      async *stream() {
        yield { type: "text", text: "hi" };
        yield { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2 } };
      },
    };
    const guarded = guardModel(model, limits, { idleMs: 1_000, totalMs: 1_000 }, systemClock);
    const parts = [];
    for await (const part of guarded.stream({ prompt: "x", purpose: "reflect" })) parts.push(part.type);
    expect(parts).toEqual(["text", "finish"]);
    expect(limits.usage).toMatchObject({ modelCalls: 1, inputTokens: 3, outputTokens: 2 });
    await expect(guarded.stream({ prompt: "x" })[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: "budget-exceeded",
    });
  });
});

describe("Approvals", () => {
  it("asks for a clean source's steps once it ends, and a denial skips the step", () => {
    const { core, table, events, skipped } = createCore({ tools: { pay: { approval: "plan" } } });
    const approvals = new Approvals(core, () => undefined);
    const source: StepSource = { kind: "plan", attempt: 1, state: "streaming" };
    const entry = table.add(tool("s1", "pay", { amount: 5 }), source);
    approvals.track(entry, "plan");
    expect(events).toEqual([]);
    source.state = "clean";
    approvals.requestFor(source);
    expect(events.map((event) => event.type)).toEqual(["approval-request"]);
    expect(approvals.waiting).toBe(1);
    approvals.approve({ stepId: "s1", approved: false, reason: "no" });
    expect(approvals.waiting).toBe(0);
    expect(skipped).toEqual([["s1", "denied"]]);
  });

  it("asks nothing for a side effect of an unclean source: the policy skips it", () => {
    const { core, table, events } = createCore({ tools: { pay: { approval: "plan" } } });
    const approvals = new Approvals(core, () => undefined);
    const source: StepSource = { kind: "plan", attempt: 1, state: "unclean" };
    approvals.track(table.add(tool("s1", "pay"), source), "plan");
    approvals.requestFor(source);
    expect(events).toEqual([]);
  });

  it("asks again before the call when a reflector changed the arguments, even after a plan's approval", () => {
    const { core, table, events } = createCore({ tools: { pay: { approval: "plan" } } });
    const approvals = new Approvals(core, () => undefined);
    const entry = table.add(tool("s1", "pay", { amount: 5 }), { kind: "plan", attempt: 1, state: "clean" });
    entry.approval = { mode: "plan", status: "approved", requestId: "a1", shown: { amount: 5 } };
    expect(approvals.hold(entry)).toBe(false);
    entry.overrides = { amount: 5000 };
    expect(approvals.hold(entry)).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: "approval-request",
      source: "step",
      steps: [{ stepId: "s1", arguments: { amount: 5000 } }],
    });
    expect(
      Object.isFrozen((events.at(-1) as Extract<RuntimeEvent, { type: "approval-request" }>).steps[0]?.arguments),
    ).toBe(true);
  });
});

describe("Replanning", () => {
  it("keeps failures for a re-plan, lets a planner take some, and gives up when no re-plan is left", () => {
    const { core, table } = createCore({ maxReplans: 0 });
    const replanning = new Replanning(core, {
      replyStreaming: false,
      register: () => undefined,
      applied: () => undefined,
    });
    const source: StepSource = { kind: "plan", attempt: 1, state: "clean" };
    const [a, b] = [table.add(tool("a", "read"), source), table.add(tool("b", "read"), source)] as [
      StepEntry,
      StepEntry,
    ];
    a.status = "failed";
    b.status = "failed";
    replanning.add(a);
    replanning.add(b);
    expect(replanning.release(["b"])).toBe(true);
    expect(replanning.release(["b"])).toBe(false);
    expect(replanning.pending).toBe(1);
    expect(replanning.possible()).toBe(false);
    expect(replanning.mayReplace("a")).toBe(false);
    replanning.giveUp();
    expect(replanning.pending).toBe(0);
    expect(a.handled).toBe(true);
  });
});

describe("Replies", () => {
  it("streams the reply step once the plan ended cleanly, then resolves it whole", () => {
    const { core, table, events } = createCore();
    let phase: RunPhase = "planning";
    const source: StepSource = { kind: "plan", attempt: 1, state: "clean" };
    const replies = new Replies(core, {
      get phase() {
        return phase;
      },
      planSource: source,
      anyFailure: false,
      planIssues: 0,
    });
    const lookup = table.add(tool("s1", "read"), source);
    const answer = table.add({ id: "s2", type: "reply", text: "Found {{s1.value}}." }, source);
    replies.advance();
    expect(replies.streaming).toBe(false);
    phase = "executing";
    replies.advance();
    expect(replies.streaming).toBe(true);
    expect(events.map((event) => (event.type === "reply-delta" ? event.delta : event.type))).toEqual(["Found "]);
    table.succeed(lookup, { value: 42 });
    replies.run(answer);
    expect(
      events
        .filter((event) => event.type === "reply-delta")
        .map((event) => (event.type === "reply-delta" ? event.delta : "")),
    ).toEqual(["Found ", "42."]);
    expect(table.results.get("s2")).toBe("Found 42.");
  });
});
