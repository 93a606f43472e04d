/**
 * What a run is made of and what every part of it shares.
 *
 * @module
 */

import type { RuntimeEvent, StepSkipCode } from "../../events/runtime-event.ts";
import type { ModelTimeouts } from "../../model/bound-stream.ts";
import type { PlanModel } from "../../model/plan-model.ts";
import type { Planner } from "../../planner/planner.ts";
import type { PlannerProfile } from "../../planner/planner-event.ts";
import type { Reflector } from "../../planner/reflector.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import type { ToolRegistry } from "../../tools/tool-registry.ts";
import type { BackoffPolicy } from "../compute-backoff.ts";
import type { MemoryStore } from "../memory-store.ts";
import type { ResultCache } from "../result-cache.ts";
import type { RuntimeBudget } from "../runtime-budget.ts";
import type { StepExecutor } from "../step-executor.ts";
import type { ToolPolicy } from "../tool-policy.ts";
import type { DistributiveOmit } from "./attempt-step.ts";
import type { SideEffectCounter } from "./run-result-cache.ts";
import type { SafetyPolicy } from "./safety-policy.ts";
import type { Scheduler } from "./scheduler.ts";
import type { StepEntry, StepTable } from "./step-table.ts";
import type { UsageLimits } from "./usage-limits.ts";

/** Everything a run needs, with defaults applied. */
export interface RunConfig {
  planner: Planner;
  registry: ToolRegistry;
  profile?: PlannerProfile | string | undefined;
  memory: MemoryStore | undefined;
  reflector: Reflector | undefined;
  model: PlanModel | undefined;
  eager: "safe" | "all" | "none";
  maxConcurrency: number;
  timeoutMs: number;
  retries: number;
  backoff: BackoffPolicy;
  maxReplans: number;
  reflectionRetries: number;
  budget: RuntimeBudget;
  /** A cache shared across runs (opt-in); `undefined` keeps reuse within the run. */
  sharedCache: ResultCache | undefined;
  /** Side effects ended across the runtime's runs: a result read before one is not reused by any run. */
  sideEffects: SideEffectCounter;
  /** `false` turns every cache off. */
  caching: boolean;
  integrate: "model" | "template";
  clock: RuntimeClock;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  executeStep?: StepExecutor | undefined;
  /** The application's per-tool policy. */
  policy: Readonly<Record<string, ToolPolicy>>;
  /** Limits of every model call the runtime makes. */
  modelTimeouts: ModelTimeouts;
  /** The longest a memory read or write may take. */
  memoryTimeoutMs: number;
  /** When a reply step's text starts streaming: once nothing can replace it, or as soon as the plan ended cleanly. */
  replyStreaming: "safe" | "early";
  /** How long an approval request waits before its undecided steps are denied; `undefined` waits until the run ends. */
  approvalTimeoutMs: number | undefined;
}

/** What a run is asked. */
export interface RunInput {
  runId: string;
  query: string;
  /** Earlier turns of the conversation, for the planner's context. */
  history: string;
  context: Record<string, unknown>;
}

/**
 * What the parts of a run (approvals, replies, re-planning, planning)
 * share: its settings and request, its steps, policy, budget and
 * scheduler, and the few things every part does to the run.
 */
export interface RunCore {
  readonly config: RunConfig;
  readonly input: RunInput;
  readonly table: StepTable;
  readonly policy: SafetyPolicy;
  readonly limits: UsageLimits;
  readonly scheduler: Scheduler;
  /** The run's abort signal. */
  readonly signal: AbortSignal;
  /** Emits an event of the run (stamped with its id and time). */
  emit(event: DistributiveOmit<RuntimeEvent, "runId" | "t">): void;
  /** Whether the run ended. */
  isEnded(): boolean;
  /** Moves the run on after a change. */
  settle(): void;
  /** Marks a pending step skipped. */
  skip(entry: StepEntry, code: StepSkipCode, reason: string): void;
}
