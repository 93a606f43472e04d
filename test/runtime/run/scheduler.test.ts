import { describe, expect, it } from "vitest";
import type { StepSkipCode } from "../../../src/events/runtime-event.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { createSafetyPolicy } from "../../../src/runtime/run/safety-policy.ts";
import { Scheduler } from "../../../src/runtime/run/scheduler.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { type StepEntry, StepTable } from "../../../src/runtime/run/step-table.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";

const tool = (id: string, args: Record<string, unknown> = {}, name = "read"): PlanStep => ({
  id,
  type: "tool",
  name,
  arguments: args,
});
const registry = new ToolRegistry().register([
  { name: "read", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => null },
  { name: "write", inputSchema: { type: "object" }, execute: () => null },
]);
const policy = createSafetyPolicy({ registry, eager: "safe", retries: 0, timeoutMs: 1_000, tools: {} });

function setup(options: { maxConcurrency?: number; budget?: number } = {}) {
  const table = new StepTable({});
  const source: StepSource = { kind: "plan", attempt: 1, state: "streaming" };
  const started: string[] = [];
  const skipped: [string, StepSkipCode][] = [];
  let evaluations = 0;
  let budget = options.budget ?? Number.POSITIVE_INFINITY;
  const scheduler = new Scheduler(table, {
    view: {
      statusOf: (id) => {
        evaluations++;
        return table.get(id)?.status;
      },
      mayBeReplanned: () => false,
      get planEnded() {
        return source.state !== "streaming";
      },
      othersSettled: true,
    },
    maxConcurrency: options.maxConcurrency ?? 100,
    refuseStart: () => (budget-- > 0 ? undefined : "no budget"),
    start: (entry) => started.push(entry.step.id),
    reply: (entry) => started.push(entry.step.id),
    holdForApproval: () => false,
    safety: (entry) => policy.verdictOf(entry.step, entry.source, entry.approval),
    skip: (entry, code) => {
      entry.status = "skipped";
      skipped.push([entry.step.id, code]);
    },
  });
  const finish = (entry: StepEntry): void => {
    scheduler.running--;
    scheduler.succeeded(table.succeed(entry, 1));
    scheduler.pump();
  };
  return { table, source, scheduler, started, skipped, finish, evaluations: () => evaluations };
}

describe("Scheduler", () => {
  it("starts a chain one step at a time as each dependency succeeds", () => {
    const { table, source, scheduler, started, finish } = setup();
    const entries = ["s1", "s2", "s3"].map((id, index) =>
      table.add(tool(id, index === 0 ? {} : { x: `{{s${index}}}` }), source),
    );
    for (const entry of entries) scheduler.consider(entry);
    scheduler.pump();
    expect(started).toEqual(["s1"]);
    finish(entries[0] as StepEntry);
    expect(started).toEqual(["s1", "s2"]);
    finish(entries[1] as StepEntry);
    expect(started).toEqual(["s1", "s2", "s3"]);
  });

  it("keeps to the concurrency limit and starts queued steps in the order they became ready", () => {
    const { table, source, scheduler, started, finish } = setup({ maxConcurrency: 2 });
    const entries = ["a", "b", "c", "d"].map((id) => table.add(tool(id), source));
    for (const entry of entries) scheduler.consider(entry);
    scheduler.pump();
    expect(started).toEqual(["a", "b"]);
    finish(entries[1] as StepEntry);
    expect(started).toEqual(["a", "b", "c"]);
  });

  it("holds steps at their source until it ends", () => {
    const { table, source, scheduler, started } = setup();
    const entry = table.add(tool("s1", {}, "write"), source);
    scheduler.consider(entry);
    scheduler.pump();
    expect(started).toEqual([]);
    source.state = "clean";
    scheduler.sourceEnded(source);
    scheduler.pump();
    expect(started).toEqual(["s1"]);
  });

  it("skips what the budget refuses, and its dependents", () => {
    const { table, source, scheduler, started, skipped } = setup({ budget: 1 });
    const a = table.add(tool("a"), source);
    const b = table.add(tool("b"), source);
    const c = table.add(tool("c", { x: "{{b}}" }), source);
    for (const entry of [a, b, c]) scheduler.consider(entry);
    scheduler.pump();
    expect(started).toEqual(["a"]);
    expect(skipped).toEqual([
      ["b", "budget"],
      ["c", "dependency-failed"],
    ]);
  });

  it("cascades skips through a 20,000-step chain without recursion, looking at each step a bounded number of times", () => {
    const { table, source, scheduler, skipped, evaluations } = setup();
    const first = table.add(tool("s1", {}, "write"), source);
    scheduler.consider(first);
    for (let index = 2; index <= 20_000; index++)
      scheduler.consider(table.add(tool(`s${index}`, { x: `{{s${index - 1}}}` }), source));
    source.state = "unclean";
    scheduler.sourceEnded(source);
    expect(skipped).toHaveLength(20_000);
    expect(skipped[0]).toEqual(["s1", "unsafe-plan"]);
    expect(skipped[19_999]).toEqual(["s20000", "dependency-failed"]);
    // Each step's one reference is looked up when it is added and when its dependency ends.
    expect(evaluations()).toBeLessThanOrEqual(3 * 20_000);
  });
});
