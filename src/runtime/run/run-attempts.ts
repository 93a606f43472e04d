/**
 * A step's attempts, and the reflector's say on its failure.
 *
 * @module
 */
import type { RuntimeErrorInfo } from "../../events/runtime-event.ts";
import type { PlanModel } from "../../model/plan-model.ts";
import type { AttemptContext } from "./attempt-step.ts";
import { type ExecutorSetup, executeStep } from "./execute-step.ts";
import { reflectOnFailure } from "./reflect-on-failure.ts";
import { createRetryingExecutor } from "./retrying-executor.ts";
import type { RunCore } from "./run-core.ts";
import { createRunResultCache } from "./run-result-cache.ts";
import type { StepEntry } from "./step-table.ts";

/** Where a step's outcome goes. */
export interface AttemptOutcomes {
  /** The step succeeded with this (frozen) result. */
  succeeded(entry: StepEntry, value: unknown, attempt: number, durationMs: number, cached: boolean): void;
  /** The step failed for good. */
  failed(entry: StepEntry, error: RuntimeErrorInfo, attempt: number, durationMs: number): void;
  /** A reflector stopped the run. */
  stop(message: string): void;
}

/** What a run's step attempts work with, made once per run by {@link createStepAttempts}. */
export interface StepAttempts {
  readonly core: RunCore;
  readonly attempt: AttemptContext;
  readonly executor: ExecutorSetup;
  readonly outcomes: AttemptOutcomes;
}

/**
 * What a run's steps are attempted with: the attempt context (with the
 * run's result cache), the executor (the application's, or the default one
 * with retries), and the reflector.
 *
 * @param core - the run.
 * @param model - the run's model (counted, budgeted, bounded), if any.
 * @param outcomes - where each step's outcome goes.
 * @returns the attempts.
 *
 * @example
 * ```ts
 * const attempts = createStepAttempts(core, model, outcomes);
 * void runAttempts(attempts, entry);
 * ```
 */
export function createStepAttempts(
  core: RunCore,
  model: PlanModel | undefined,
  outcomes: AttemptOutcomes,
): StepAttempts {
  const { config, table } = core;
  return {
    core,
    attempt: {
      ...core,
      cache: config.caching ? createRunResultCache(config.sharedCache, config.sideEffects) : undefined,
      model,
      isCurrent: (entry, generation) => !core.isEnded() && entry.generation === generation,
    },
    executor: {
      executor: config.executeStep ?? createRetryingExecutor(config.random, config.sleep),
      fromApplication: config.executeStep !== undefined,
      backoff: config.backoff,
      results: table.results,
    },
    outcomes,
  };
}

/**
 * Runs a tool or llm step (already marked running) through the executor
 * until it succeeds or fails for good, with the reflector's say on a
 * failure: a `retry` the safety policy allows (`mayRepeat`) sends the step
 * back to the scheduler, so changed arguments meet the approval policy
 * before the call; one it refuses counts as `new_plan` (the `reflection`
 * event says why in `refused`); `abort` stops the run. Everything up to the
 * tool call is synchronous, so a ready step's tool starts in the same tick
 * its `step` event arrived.
 *
 * @param attempts - what the run's steps are attempted with.
 * @param entry - a step marked running.
 * @returns resolves once the step's outcome was applied.
 *
 * @example
 * ```ts
 * void runAttempts(attempts, entry);
 * ```
 */
export async function runAttempts(attempts: StepAttempts, entry: StepEntry): Promise<void> {
  const { core: host, outcomes } = attempts;
  const generation = entry.generation;
  const { outcome, durationMs } = await executeStep(attempts.attempt, attempts.executor, entry);
  if (host.isEnded() || entry.generation !== generation) return;
  const attempt = Math.max(1, entry.attempts);
  if (outcome.ok === "skip") {
    host.scheduler.running--;
    if (entry.attempts <= 1) {
      host.skip(entry, outcome.code, outcome.reason);
      host.scheduler.ended(entry);
    } else {
      outcomes.failed(entry, { code: "budget-exceeded", message: outcome.reason }, attempt, durationMs);
    }
    host.settle();
    return;
  }
  if (outcome.ok) {
    host.scheduler.running--;
    outcomes.succeeded(entry, outcome.value, attempt, durationMs, outcome.cached);
    host.settle();
    return;
  }
  entry.error = outcome.error;
  // The step counts as running while the reflector thinks.
  const verdict = await reflectOnFailure(host, attempts.attempt.model, entry, outcome.error);
  if (host.isEnded() || entry.generation !== generation) return;
  host.scheduler.running--;
  const repeat = verdict?.action === "retry" && host.policy.mayRepeat(entry.step);
  if (verdict !== undefined) {
    const retry = verdict.action === "retry";
    host.emit({
      type: "reflection",
      stepId: entry.step.id,
      action: verdict.action,
      reason: verdict.reason,
      ...(retry && verdict.arguments !== undefined ? { arguments: verdict.arguments } : {}),
      ...(retry && !repeat
        ? {
            refused: `Step "${entry.step.id}" may have acted and its tool is neither read-only nor idempotent: it is not run again; a re-plan may replace it`,
          }
        : {}),
    });
  }
  if (verdict?.action === "retry" && repeat) {
    entry.reflections++;
    if (verdict.arguments !== undefined) entry.overrides = { ...entry.overrides, ...verdict.arguments };
    host.emit({ type: "step-error", stepId: entry.step.id, attempt, error: outcome.error, final: false, durationMs });
    host.emit({
      type: "step-retry",
      stepId: entry.step.id,
      attempt: attempt + 1,
      delayMs: 0,
      cause: "reflection",
      ...(verdict.arguments === undefined ? {} : { arguments: verdict.arguments }),
    });
    entry.status = "pending";
    host.scheduler.reconsider([entry]);
    host.settle();
    return;
  }
  outcomes.failed(entry, outcome.error, attempt, durationMs);
  if (verdict?.action === "abort") {
    const why = verdict.reason === "" ? "" : `: ${verdict.reason}`;
    outcomes.stop(`A reflector stopped the run after step "${entry.step.id}" failed${why}`);
    return;
  }
  host.settle();
}

/**
 * Stops a running step because the run stopped: its attempt's outcome will
 * be ignored, and it fails for good with the run's error.
 *
 * @param core - the run.
 * @param entry - a running step.
 * @param error - why the run stopped (`aborted` or `timeout`).
 *
 * @example
 * ```ts
 * stopAttempt(core, entry, { code: "aborted", message: "The run was aborted" });
 * ```
 */
export function stopAttempt(core: RunCore, entry: StepEntry, error: RuntimeErrorInfo): void {
  entry.generation++;
  entry.status = "failed";
  entry.error = error;
  core.emit({
    type: "step-error",
    stepId: entry.step.id,
    attempt: Math.max(1, entry.attempts),
    error,
    final: true,
    durationMs: 0,
  });
}
