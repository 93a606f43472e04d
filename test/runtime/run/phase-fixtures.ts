/**
 * A small run for testing the run's parts each on its own: a fake clock, a
 * full run configuration, a run core over a real step table, safety
 * policy, usage limits and scheduler, and a planner that streams what a test
 * scripts.
 *
 * @module
 */

import type { RuntimeEvent, StepSkipCode } from "../../../src/events/runtime-event.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import type { Planner } from "../../../src/planner/planner.ts";
import type { PlannerEvent, PlanRequest, ReplanRequest } from "../../../src/planner/planner-event.ts";
import type { RunConfig, RunCore, RunInput } from "../../../src/runtime/run/run-core.ts";
import { createSafetyPolicy } from "../../../src/runtime/run/safety-policy.ts";
import { Scheduler, type SchedulerHooks } from "../../../src/runtime/run/scheduler.ts";
import { type StepEntry, StepTable } from "../../../src/runtime/run/step-table.ts";
import { UsageLimits } from "../../../src/runtime/run/usage-limits.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";
import { createFakeClock } from "./fake-clock.ts";

/** Lets every promise that can settle now settle (one turn of the event loop, no waiting). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** What a test tool does when called, with the arguments and the call's signal. */
export type ToolBehaviour = (args: Record<string, unknown>, signal: AbortSignal | undefined) => unknown;

/**
 * A registry of `read` (read-only) and `pay` (side effects), and any tools a
 * test adds; each records its calls.
 *
 * @param behaviours - what each tool does (default: returns its arguments).
 * @param readOnly - the names of added tools that are read-only.
 * @returns the registry and the calls made, by tool.
 */
export function createTools(behaviours: Record<string, ToolBehaviour> = {}, readOnly: readonly string[] = []) {
  const calls: { tool: string; args: Record<string, unknown>; signal: AbortSignal | undefined }[] = [];
  const names = new Set(["read", "pay", ...Object.keys(behaviours)]);
  const registry = new ToolRegistry().register(
    [...names].map((name) => ({
      name,
      inputSchema: { type: "object" },
      ...(name === "read" || readOnly.includes(name) ? { annotations: { readOnlyHint: true } } : {}),
      execute: (args: Record<string, unknown>, options: { signal?: AbortSignal | undefined }) => {
        calls.push({ tool: name, args, signal: options.signal });
        const behaviour = behaviours[name];
        return behaviour === undefined ? { ...args } : behaviour(args, options.signal);
      },
    })),
  );
  return { registry, calls };
}

/** A planner whose stream a test writes, recording its requests and whether it was closed. */
export interface ScriptedPlanner extends Planner {
  readonly requests: PlanRequest[];
  readonly replans: ReplanRequest[];
  /** Whether the run closed the planner's stream before it ended. */
  readonly closed: boolean;
}

/**
 * Creates a planner streaming what `script` yields.
 *
 * @param script - the stream, as a function of the request.
 * @param options - the planner's model, whether it hears outcomes, and its re-plans.
 * @returns the planner.
 */
export function createScriptedPlanner(
  script: (request: PlanRequest) => AsyncIterable<PlannerEvent>,
  options: Pick<Planner, "model" | "hearsOutcomes"> & {
    replan?: (request: ReplanRequest) => PlanStep[] | Promise<PlanStep[]>;
  } = {},
): ScriptedPlanner {
  const requests: PlanRequest[] = [];
  const replans: ReplanRequest[] = [];
  let closed = false;
  const planner: ScriptedPlanner = {
    requests,
    replans,
    get closed() {
      return closed;
    },
    stream(request) {
      requests.push(request);
      const iterator = script(request)[Symbol.asyncIterator]();
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => iterator.next(),
          return: async () => {
            closed = true;
            await iterator.return?.();
            return { done: true, value: undefined };
          },
        }),
      };
    },
    async replan(request) {
      replans.push(request);
      return options.replan === undefined ? [] : options.replan(request);
    },
    ...(options.hearsOutcomes === undefined ? {} : { hearsOutcomes: options.hearsOutcomes }),
  };
  if (options.model !== undefined) Object.assign(planner, { model: options.model });
  return planner;
}

/**
 * The events of a planner that streams the steps and ends cleanly.
 *
 * @param steps - the plan.
 * @param done - fields of `done` to change.
 * @returns the events.
 */
export function planEvents(
  steps: readonly PlanStep[],
  done: Partial<Extract<PlannerEvent, { type: "done" }>> = {},
): PlannerEvent[] {
  return [
    ...steps.map((step, index): PlannerEvent => ({ type: "step", step, index })),
    {
      type: "done",
      steps: [...steps],
      clean: true,
      finishReason: "stop",
      fallback: false,
      usage: { modelCalls: 0 },
      ...done,
    },
  ];
}

/**
 * A planner that streams the steps and ends cleanly.
 *
 * @param steps - the plan.
 * @param options - see {@link createScriptedPlanner}.
 * @returns the planner.
 */
export function createPlanPlanner(
  steps: readonly PlanStep[],
  options: Parameters<typeof createScriptedPlanner>[1] = {},
): ScriptedPlanner {
  return createScriptedPlanner(async function* () {
    yield* planEvents(steps);
  }, options);
}

/**
 * A full run configuration: quick limits, no retries, no re-plans, no
 * memory, reflector or model, unless `overrides` set them.
 *
 * @param overrides - settings to change.
 * @returns the configuration.
 */
export function createRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    planner: createPlanPlanner([]),
    registry: createTools().registry,
    memory: undefined,
    reflector: undefined,
    model: undefined,
    eager: "safe",
    maxConcurrency: 16,
    timeoutMs: 1_000,
    retries: 0,
    backoff: {},
    maxReplans: 0,
    reflectionRetries: 1,
    budget: {},
    sharedCache: undefined,
    sideEffects: { count: 0 },
    caching: true,
    integrate: "model",
    clock: createFakeClock(),
    random: () => 0,
    sleep: async () => undefined,
    policy: {},
    modelTimeouts: { idleMs: 1_000, totalMs: 1_000 },
    memoryTimeoutMs: 1_000,
    replyStreaming: "safe",
    approvalTimeoutMs: undefined,
    ...overrides,
  };
}

/** What {@link createPhaseCore} may be told. */
export interface PhaseCoreOptions {
  input?: Partial<RunInput>;
  /** Starts a tool or llm step the scheduler marked running (default: records it). */
  start?: (entry: StepEntry) => void;
  /** Resolves a ready reply step (default: records it). */
  reply?: (entry: StepEntry) => void;
  /** What `settle` does besides counting (default: nothing). */
  settle?: () => void;
}

/**
 * A run core over a real table, safety policy, usage limits and scheduler,
 * recording every event (stamped with the clock's time), every step the
 * scheduler started and every `settle`. `skip` marks a step skipped and
 * emits `step-skipped`, as the run does.
 *
 * @param overrides - the configuration, see {@link createRunConfig}.
 * @param options - the request and what starting a step does.
 * @returns the core and what it records.
 */
export function createPhaseCore(overrides: Partial<RunConfig> = {}, options: PhaseCoreOptions = {}) {
  const config = createRunConfig(overrides);
  const input: RunInput = { runId: "r1", query: "q", history: "", context: {}, ...options.input };
  const table = new StepTable(input.context);
  const policy = createSafetyPolicy({ ...config, tools: config.policy });
  const limits = new UsageLimits(config.budget, config.maxReplans);
  const controller = new AbortController();
  const events: RuntimeEvent[] = [];
  const started: string[] = [];
  let ended = false;
  let settles = 0;
  const skip = (entry: StepEntry, code: StepSkipCode, reason: string): void => {
    entry.status = "skipped";
    entry.skipCode = code;
    entry.skipReason = reason;
    core.emit({ type: "step-skipped", stepId: entry.step.id, code, reason });
  };
  const hooks: SchedulerHooks = {
    view: {
      statusOf: (id) => table.get(id)?.status,
      mayBeReplanned: () => false,
      planEnded: true,
      othersSettled: true,
    },
    maxConcurrency: config.maxConcurrency,
    refuseStart: () => limits.refuseStep(),
    start: (entry) => (options.start === undefined ? started.push(entry.step.id) : options.start(entry)),
    safety: (entry) => policy.verdictOf(entry.step, entry.source, entry.approval),
    reply: (entry) => (options.reply === undefined ? started.push(entry.step.id) : options.reply(entry)),
    skip,
    holdForApproval: () => false,
  };
  const scheduler = new Scheduler(table, hooks);
  const core: RunCore = {
    config,
    input,
    table,
    policy,
    limits,
    scheduler,
    signal: controller.signal,
    emit: (event) => events.push({ runId: input.runId, t: config.clock.now(), ...event } as RuntimeEvent),
    isEnded: () => ended,
    settle: () => {
      settles++;
      options.settle?.();
    },
    skip,
  };
  return {
    core,
    config,
    table,
    limits,
    scheduler,
    events,
    started,
    controller,
    /** Marks the run ended, as `run-end` would. */
    end: () => {
      ended = true;
    },
    settles: () => settles,
    /** The event types, in order. */
    types: () => events.map((event) => event.type),
  };
}

/** The joined `reply-delta` text of some events. */
export function deltasOf(events: readonly RuntimeEvent[]): string {
  return events.map((event) => (event.type === "reply-delta" ? event.delta : "")).join("");
}

/**
 * One event of a type, or a failed expectation.
 *
 * @param events - the events.
 * @param type - the type.
 * @returns the last event of that type.
 */
export function lastOf<T extends RuntimeEvent["type"]>(
  events: readonly RuntimeEvent[],
  type: T,
): Extract<RuntimeEvent, { type: T }> {
  const found = events.filter((event) => event.type === type).at(-1);
  if (found === undefined) throw new Error(`No ${type} event among ${events.map((event) => event.type).join(", ")}`);
  return found as Extract<RuntimeEvent, { type: T }>;
}
