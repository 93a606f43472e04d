import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/index.ts";
import { computeEngineRetryDelay } from "../../worker/runs/compute-engine-retry-delay.ts";
import { createClosingEvents } from "../../worker/runs/create-closing-events.ts";
import { createEventKeyer } from "../../worker/runs/create-event-keyer.ts";
import { createEventOutbox } from "../../worker/runs/create-event-outbox.ts";
import { createRunId } from "../../worker/runs/create-run-id.ts";
import { durableStepName } from "../../worker/runs/durable-step-name.ts";
import type { LoggedEvent } from "../../worker/runs/logged-event.ts";
import { parseRunId } from "../../worker/runs/parse-run-id.ts";
import { toStepConfig } from "../../worker/runs/to-step-config.ts";

const usage = { modelCalls: 0, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 };
const base = { runId: "run-1" };

describe("durable run helpers", () => {
  it("make run ids that carry their session and are valid Workflow instance ids", () => {
    const plain = createRunId();
    const named = createRunId("chat_42-b");
    expect(plain).toMatch(/^run-[0-9a-f]{32}$/);
    expect(named).toMatch(/^run-[0-9a-f]{32}-chat_42-b$/);
    expect(plain).not.toBe(createRunId());
    expect(parseRunId(plain)).toEqual({ runId: plain, session: plain });
    expect(parseRunId(named)).toEqual({ runId: named, session: "chat_42-b" });
    expect(createRunId("s".repeat(60)).length).toBeLessThanOrEqual(100);
    for (const bad of ["run-123", `run-${"g".repeat(32)}`, `${plain}-`, `${plain}-a b`, `x${plain}`])
      expect(parseRunId(bad)).toBeUndefined();
  });

  it("name a durable step by its id and a hash of its resolved input, whatever the key order", async () => {
    const name = await durableStepName("s2", { b: 1, a: [1, { d: 2, c: 3 }] });
    expect(name).toMatch(/^s2#[0-9a-f]{12}$/);
    expect(await durableStepName("s2", { a: [1, { c: 3, d: 2 }], b: 1 })).toBe(name);
    expect(await durableStepName("s2", { a: [1, { c: 3, d: 2 }], b: 2 })).not.toBe(name);
    expect(await durableStepName("s3", { b: 1, a: [1, { d: 2, c: 3 }] })).not.toBe(name);
  });

  it("map a step's policy onto step.do's configuration, and compute the engine's retry delays", () => {
    const config = toStepConfig({ retries: 3, timeoutMs: 20_000, backoff: { initialMs: 250 } });
    expect(config).toEqual({ retries: { limit: 3, delay: 250, backoff: "exponential" }, timeout: 21_000 });
    expect(toStepConfig({ retries: 0, timeoutMs: 99.5, backoff: { factor: 1 } })).toEqual({
      retries: { limit: 0, delay: 100, backoff: "constant" },
      timeout: 1100,
    });
    expect([1, 2, 3].map((attempt) => computeEngineRetryDelay(config, attempt))).toEqual([250, 500, 1000]);
    expect(computeEngineRetryDelay({ retries: { limit: 2, delay: 100, backoff: "linear" } }, 3)).toBe(300);
    expect(computeEngineRetryDelay({ retries: { limit: 2, delay: 100, backoff: "constant" } }, 3)).toBe(100);
    expect(computeEngineRetryDelay({}, 1)).toBe(0);
  });

  it("key reply deltas by where their text starts in the reply", () => {
    const keyOf = createEventKeyer();
    expect(["The ", "answer", "", " is 42."].map((delta) => keyOf({ type: "reply-delta", delta }))).toEqual([
      "reply-delta@0",
      "reply-delta@4",
      "reply-delta@10",
      "reply-delta@10",
    ]);
    expect(keyOf({ type: "reply", text: "The answer is 42." })).toBe("reply::::1");
  });

  it("key events so each logical event has one key per execution and each step one terminal key", () => {
    const keys = (events: { type: string; [member: string]: unknown }[]): string[] => {
      const keyOf = createEventKeyer();
      return events.map((event) => keyOf(event));
    };
    const first = keys([
      { type: "plan-start", kind: "plan", attempt: 1 },
      { type: "step-planned", step: { id: "a" } },
      { type: "step-planned", step: { id: "b" } },
      { type: "step-start", stepId: "a", attempt: 1 },
      { type: "step-start", stepId: "b", attempt: 1 },
      { type: "step-error", stepId: "a", attempt: 1, final: false },
      { type: "step-start", stepId: "a", attempt: 2 },
      { type: "step-end", stepId: "b", attempt: 1 },
      { type: "step-end", stepId: "a", attempt: 2 },
      { type: "step-issue" },
      { type: "step-issue" },
    ]);
    expect(new Set(first).size).toBe(first.length);
    // A replay: the interleaving differs, a stored result ends a step "at attempt 1", a final error is a terminal event.
    const replayed = keys([
      { type: "plan-start", kind: "plan", attempt: 1 },
      { type: "step-planned", step: { id: "a" } },
      { type: "step-planned", step: { id: "b" } },
      { type: "step-end", stepId: "a", attempt: 1 },
      { type: "step-error", stepId: "b", attempt: 1, final: true },
      { type: "step-issue" },
    ]);
    expect(replayed.filter((key) => !first.includes(key))).toEqual([]);
    expect(replayed[3]).toBe("terminal:a:1");
  });

  it("send a run's events in order, keep a failed batch for the next flush, and shift times from the run's creation", async () => {
    const sent: LoggedEvent[][] = [];
    let failures = 3;
    const sink = {
      append: async (_runId: string, items: LoggedEvent[]) => {
        if (failures-- > 0) throw new Error("the session is unreachable");
        sent.push(items);
      },
    };
    const events: RuntimeEvent[] = [{ ...base, type: "plan-start", t: 0, kind: "plan", query: "q", attempt: 1 }];
    const outbox = createEventOutbox(sink, "run-1", events, 1000);
    await expect(outbox.flush()).rejects.toThrow("unreachable");
    events.push({ ...base, type: "run-end", t: 5, reason: "completed", usage, durationMs: 5 });
    await outbox.flush();
    expect(sent).toEqual([
      [
        { key: "plan-start::1:plan:1", event: { ...events[0], t: 1000 } },
        { key: "run-end::::1", event: { ...events[1], t: 1005, durationMs: 1005 } },
      ],
    ]);
    outbox.halt();
    events.push({ ...base, type: "reply", t: 6, text: "late", source: "template" });
    await outbox.flush();
    expect(sent).toHaveLength(1);
  });

  it("close a stopped run with one terminal event per unfinished step and run-end last", () => {
    const planned = (id: string, index: number): RuntimeEvent => ({
      ...base,
      type: "step-planned",
      t: 1,
      step: { id, type: "tool", name: "x", arguments: {} },
      index,
      source: "plan",
      safe: true,
    });
    const log: RuntimeEvent[] = [
      { ...base, type: "plan-start", t: 0, kind: "plan", query: "q", attempt: 1 },
      planned("a", 0),
      planned("b", 1),
      planned("c", 2),
      { ...base, type: "step-start", t: 2, stepId: "a", attempt: 1, tool: "x", cached: false },
      { ...base, type: "step-end", t: 3, stepId: "a", attempt: 1, result: 1, durationMs: 1, cached: false },
      { ...base, type: "step-start", t: 4, stepId: "b", attempt: 1, tool: "x", cached: false },
    ];
    const error = { code: "aborted", message: "The run was cancelled" };
    const closing = createClosingEvents(log, "run-1", "aborted", error, 0);
    expect(closing).toEqual([
      { ...base, type: "step-error", t: 4, stepId: "b", attempt: 1, error, final: true, durationMs: 0 },
      { ...base, type: "step-skipped", t: 4, stepId: "c", code: "aborted", reason: "The run was cancelled" },
      { ...base, type: "run-end", t: 4, reason: "aborted", usage: { ...usage, toolCalls: 2 }, durationMs: 4, error },
    ]);
    expect(createClosingEvents([...log, ...closing], "run-1", "aborted", error, 0)).toEqual([]);
    // Cancelled ten seconds in: the closing events carry the time the run lived, not its last logged event's.
    const later = createClosingEvents(log, "run-1", "aborted", error, 10_113);
    expect(later.map((event) => event.t)).toEqual([10_113, 10_113, 10_113]);
    expect(later.at(-1)).toMatchObject({ type: "run-end", durationMs: 10_113 });
  });
});
