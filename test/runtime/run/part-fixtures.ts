/**
 * A small run core for the suites of single run parts: a real step table,
 * safety policy, usage limits, scheduler and tool registry, a clock whose
 * time moves only when a test moves it, and a record of every event.
 */
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import type { PlanModel } from "../../../src/model/plan-model.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import type { Reflector } from "../../../src/planner/reflector.ts";
import type { AttemptContext } from "../../../src/runtime/run/attempt-step.ts";
import type { RunConfig, RunCore } from "../../../src/runtime/run/run-core.ts";
import type { RunResultCache } from "../../../src/runtime/run/run-result-cache.ts";
import { createSafetyPolicy } from "../../../src/runtime/run/safety-policy.ts";
import { Scheduler } from "../../../src/runtime/run/scheduler.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { type StepEntry, StepTable } from "../../../src/runtime/run/step-table.ts";
import { UsageLimits } from "../../../src/runtime/run/usage-limits.ts";
import type { RuntimeBudget } from "../../../src/runtime/runtime-budget.ts";
import type { ToolPolicy } from "../../../src/runtime/tool-policy.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";
import { createFakeClock } from "./fake-clock.ts";

/** What a test may change about the run. */
export interface PartRunOptions {
  registry?: ToolRegistry;
  tools?: Readonly<Record<string, ToolPolicy>>;
  eager?: "safe" | "all" | "none";
  retries?: number;
  timeoutMs?: number;
  budget?: RuntimeBudget;
  reflector?: Reflector;
  reflectionRetries?: number;
  /** The planner tells its model what became of its steps. */
  hearsOutcomes?: boolean;
  approvalTimeoutMs?: number;
  context?: Record<string, unknown>;
}

/** The tools most suites use: a read, an idempotent write and a payment, each recording its calls. */
export function createRegistry(): { registry: ToolRegistry; calls: string[] } {
  const calls: string[] = [];
  const registry = new ToolRegistry().register([
    {
      name: "read",
      description: "Read a record",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
      execute: (args: Record<string, unknown>) => (calls.push("read"), { read: args }),
    },
    {
      name: "put",
      inputSchema: { type: "object" },
      annotations: { idempotentHint: true },
      execute: () => (calls.push("put"), "stored"),
    },
    {
      name: "pay",
      description: "Pay an amount",
      inputSchema: { type: "object" },
      execute: () => (calls.push("pay"), "paid"),
    },
  ]);
  return { registry, calls };
}

/**
 * A run core around a real table, policy, limits and scheduler; `events`
 * records what the part emits, `clock` is manual and `controller` aborts the run.
 */
export function createPartRun(options: PartRunOptions = {}) {
  const registry = options.registry ?? createRegistry().registry;
  const clock = createFakeClock();
  const controller = new AbortController();
  const table = new StepTable(options.context ?? {});
  const policy = createSafetyPolicy({
    registry,
    eager: options.eager ?? "safe",
    retries: options.retries ?? 0,
    timeoutMs: options.timeoutMs ?? 1_000,
    tools: options.tools ?? {},
  });
  const limits = new UsageLimits(options.budget ?? {}, 1);
  const events: RuntimeEvent[] = [];
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
    skip: (entry) => {
      entry.status = "skipped";
    },
    holdForApproval: () => false,
  });
  const config = {
    registry,
    clock,
    reflector: options.reflector,
    reflectionRetries: options.reflectionRetries ?? 1,
    planner: { hearsOutcomes: options.hearsOutcomes === true },
    approvalTimeoutMs: options.approvalTimeoutMs,
    backoff: { initialMs: 100, factor: 2, maxMs: 5_000, jitter: 0 },
    timeoutMs: options.timeoutMs ?? 1_000,
    retries: options.retries ?? 0,
    policy: options.tools ?? {},
  } as unknown as RunConfig;
  const core: RunCore = {
    config,
    input: { runId: "r1", query: "the question", history: "", context: options.context ?? {} },
    table,
    policy,
    limits,
    scheduler,
    signal: controller.signal,
    emit: (event) => events.push({ runId: "r1", t: clock.now(), ...event } as RuntimeEvent),
    isEnded: () => controller.signal.aborted,
    settle: () => undefined,
    skip: (entry, code, reason) => {
      entry.status = "skipped";
      entry.skipCode = code;
      entry.skipReason = reason;
    },
  };
  /** The run as an attempt sees it: its cache, model and whether an attempt still counts. */
  const attemptContext = (
    extra: { cache?: RunResultCache; model?: PlanModel; isCurrent?: AttemptContext["isCurrent"] } = {},
  ): AttemptContext => ({
    config,
    input: core.input,
    policy,
    limits,
    signal: controller.signal,
    emit: core.emit,
    cache: extra.cache,
    model: extra.model,
    isCurrent:
      extra.isCurrent ?? ((entry, generation) => !controller.signal.aborted && entry.generation === generation),
  });
  return { core, table, policy, limits, events, clock, controller, registry, attemptContext };
}

/** A tool step. */
export const toolStep = (id: string, name: string, args: Record<string, unknown> = {}): PlanStep => ({
  id,
  type: "tool",
  name,
  arguments: args,
});

/** A source of steps. */
/** Adds a step to a table and marks it running, as the scheduler does before handing it on. */
/** The source of the first plan, in the given state. */
export function planSource(state: StepSource["state"] = "clean"): StepSource {
  return { kind: "plan", attempt: 1, state };
}

export function running(table: StepTable, step: PlanStep, source: StepSource = planSource()): StepEntry {
  const entry = table.add(step, source);
  entry.status = "running";
  return entry;
}

/** The types of the events, in order. */
export const typesOf = (events: readonly RuntimeEvent[]): string[] => events.map((event) => event.type);

/** Lets pending promise callbacks run. */
export async function flush(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
