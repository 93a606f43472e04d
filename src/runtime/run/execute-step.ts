/**
 * Handing a step to the step executor.
 *
 * @module
 */

import { toErrorInfo } from "../../events/to-error-info.ts";
import { canonicalJson } from "../../shared/canonical-json.ts";
import { isPromiseLike } from "../../shared/is-promise-like.ts";
import { roundMs } from "../../shared/round-ms.ts";
import type { BackoffPolicy } from "../compute-backoff.ts";
import type { StepAttemptOutcome, StepCall, StepExecutor } from "../step-executor.ts";
import { type AttemptContext, type AttemptOutcome, attemptStep, resolveStepInput } from "./attempt-step.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepEntry } from "./step-table.ts";

/** The executor and what it works with. */
export interface ExecutorSetup {
  executor: StepExecutor;
  /** The application gave the executor: its values are snapshotted like any result. */
  fromApplication: boolean;
  backoff: BackoffPolicy;
  results: ReadonlyMap<string, unknown>;
}

/**
 * Tells the run's result cache what a stored outcome means, as the attempt
 * that made it told the cache of the process that ran it: a side-effecting
 * tool ended (what was read before may be stale), or a cacheable read
 * returned its value (an identical call later in the run is served from
 * it rather than calling the tool again).
 *
 * @param context - the run.
 * @param step - the step whose outcome an executor replayed.
 * @param input - its resolved arguments.
 * @param hit - the value, when the outcome was one.
 */
function learnReplayed(
  context: AttemptContext,
  step: StepCall["step"],
  input: unknown,
  hit: { value: unknown } | undefined,
): void {
  const cache = context.cache;
  if (step.type !== "tool" || cache === undefined) return;
  if (!context.policy.traitsOf(step).readOnly) cache.invalidate();
  else if (hit !== undefined && context.policy.mayCache(step))
    cache.set(`${step.name} ${canonicalJson(input)}`, hit.value, cache.epoch);
}

/**
 * Hands a tool or llm step to the executor (the application's, or the
 * default one with retries): resolves its references (a step whose
 * references fail never reaches the executor), lends it an `attempt`
 * function that runs one attempt with the runtime's semantics (events,
 * cache, time limit, snapshot; `step-error` and `step-retry` for a failure
 * the policy lets it retry), and turns its answer into the step's outcome.
 * Each attempt resolves the arguments afresh, so what an attempt did to its
 * copy is gone.
 *
 * @param context - the run, as attempts see it.
 * @param setup - the executor, the backoff and the results.
 * @param entry - a step marked running.
 * @returns the outcome, and the duration of the last attempt.
 *
 * @example
 * ```ts
 * const { outcome } = await executeStep(context, { executor, fromApplication: false, backoff, results }, entry);
 * ```
 */
export async function executeStep(
  context: AttemptContext,
  setup: ExecutorSetup,
  entry: StepEntry,
): Promise<{ outcome: AttemptOutcome; durationMs: number }> {
  // Only tool and llm steps get here: the scheduler hands a reply step to the replies.
  const step = entry.step as StepCall["step"];
  const resolved = resolveStepInput(entry, setup.results);
  if (!resolved.ok) {
    const error = resolved.error;
    entry.attempts++;
    context.emit({
      type: "step-start",
      stepId: step.id,
      attempt: entry.attempts,
      cached: false,
      ...(step.type === "tool" ? { tool: step.name } : {}),
    });
    return { outcome: { ok: false, error, permanent: true }, durationMs: 0 };
  }
  const input = resolved.input;
  const generation = entry.generation;
  const retries = context.policy.retriesOf(step);
  const stopped: StepAttemptOutcome = {
    ok: false,
    error: { code: "aborted", message: "The run ended" },
    retryable: false,
  };
  let refused: Extract<AttemptOutcome, { ok: "skip" }> | undefined;
  let durationMs = 0;
  let replayed = false;
  const call: StepCall = {
    runId: context.input.runId,
    step,
    input,
    retries,
    timeoutMs: context.policy.timeoutOf(step),
    backoff: setup.backoff,
    signal: context.signal,
    repeatable: context.policy.mayRepeat(step),
    previousAttempts: entry.attempts,
    replayed: (attempts, cached) => {
      replayed = true;
      const count = Math.max(1, Math.floor(attempts));
      entry.attempts += count;
      if (cached) context.limits.countCacheHit();
      else
        for (let i = 0; i < count; i++)
          void (step.type === "tool" ? context.limits.refuseToolCall() : context.limits.refuseModelCall());
    },
    attempt: async (options = {}) => {
      if (!context.isCurrent(entry, generation)) return stopped;
      const number = options.number ?? entry.attempts + 1;
      entry.attempts = number;
      const startedAt = context.config.clock.now();
      let attemptInput = input;
      if (number > 1) {
        const again = resolveStepInput(entry, setup.results);
        if (again.ok) attemptInput = again.input;
      }
      const pending = attemptStep(context, entry, attemptInput, number);
      const outcome = isPromiseLike<AttemptOutcome>(pending) ? await pending : (pending as AttemptOutcome);
      durationMs = roundMs(context.config.clock.now() - startedAt);
      if (!context.isCurrent(entry, generation)) return stopped;
      if (outcome.ok === "skip") {
        refused = outcome;
        return {
          ok: false,
          error: { code: "budget-exceeded", message: outcome.reason },
          retryable: false,
          refused: true,
        };
      }
      if (outcome.ok) return { ok: true, value: outcome.value, cached: outcome.cached };
      entry.error = outcome.error;
      const retryable = !outcome.permanent && number <= retries;
      if (retryable) {
        context.emit({
          type: "step-error",
          stepId: step.id,
          attempt: number,
          error: outcome.error,
          final: false,
          durationMs,
        });
        context.emit({
          type: "step-retry",
          stepId: step.id,
          attempt: number + 1,
          delayMs: options.retryDelayMs ?? 0,
          cause: "policy",
        });
      }
      return { ok: false, error: outcome.error, retryable };
    },
  };
  let final: StepAttemptOutcome | undefined;
  try {
    final = await setup.executor(call);
  } catch (error) {
    final = { ok: false, error: toErrorInfo(error, "tool-error"), retryable: false };
  }
  if (refused !== undefined) return { outcome: refused, durationMs };
  if (final?.ok === false && final.refused === true)
    return { outcome: { ok: "skip", code: "budget", reason: final.error.message }, durationMs };
  if (replayed && final?.ok !== true) learnReplayed(context, step, input, undefined);
  if (final?.ok === true) {
    if (!setup.fromApplication)
      return { outcome: { ok: true, value: final.value, cached: final.cached === true }, durationMs };
    // An application executor's value (a durable replay, say) is snapshotted like any result.
    try {
      const value = snapshotValue(final.value, { freeze: true, what: `The result of step "${step.id}"` });
      if (replayed) learnReplayed(context, step, input, { value });
      return { outcome: { ok: true, value, cached: final.cached === true }, durationMs };
    } catch (error) {
      return { outcome: { ok: false, error: toErrorInfo(error, "invalid-result"), permanent: true }, durationMs };
    }
  }
  const error = final?.error ?? {
    code: "tool-error",
    message: `The step executor returned no outcome for step "${step.id}"`,
  };
  return { outcome: { ok: false, error, permanent: true }, durationMs };
}
