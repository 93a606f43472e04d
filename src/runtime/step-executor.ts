/**
 * The extension point that runs a step's attempts somewhere else.
 *
 * @module
 */

import type { RuntimeErrorInfo } from "../events/runtime-event.ts";
import type { LlmStep } from "../plan/llm-step-schema.ts";
import type { ToolStep } from "../plan/tool-step-schema.ts";
import type { BackoffPolicy } from "./compute-backoff.ts";

/**
 * How one attempt (or a whole {@link StepExecutor} call) ended: the value,
 * or the error and whether the step's policy allows another attempt.
 */
export type StepAttemptOutcome =
  | { ok: true; value: unknown; cached: boolean }
  | {
      ok: false;
      error: RuntimeErrorInfo;
      retryable: boolean;
      /** The budget refused the call before it started (error code `budget-exceeded`): the step is skipped (code `budget`), not failed. An executor that stores outcomes keeps it. */
      refused?: boolean;
    };

/** Options of {@link StepCall.attempt}. */
export interface StepAttemptOptions {
  /**
   * The attempt's number, when the executor counts attempts itself (a
   * durable engine that resumes a step after a restart).
   *
   * @defaultValue one more than the step's last attempt
   */
  number?: number;
  /**
   * The delay the executor will wait before the next attempt, reported in
   * `step-retry` when this attempt fails and may be retried.
   *
   * @defaultValue the runtime's backoff policy
   */
  retryDelayMs?: number;
}

/**
 * A `tool` or `llm` step handed to a {@link StepExecutor}, with its
 * references already resolved and its policy worked out by the runtime.
 */
export interface StepCall {
  /** The run's id. */
  readonly runId: string;
  /** The step. */
  readonly step: ToolStep | LlmStep;
  /** The resolved arguments (tool steps) or prompt (`llm` steps). */
  readonly input: unknown;
  /** How many retries the policy allows after the first attempt (0 for a side-effecting tool without its own `retries`). */
  readonly retries: number;
  /** The time limit of one attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** The runtime's backoff policy between retries. */
  readonly backoff: Readonly<BackoffPolicy>;
  /** The run's abort signal. */
  readonly signal: AbortSignal;
  /** Attempts the step made before this call (a reflector's retry calls the executor again); an executor that numbers attempts itself starts after them. */
  readonly previousAttempts: number;
  /**
   * Whether starting the step again has no further effect: a read-only or
   * idempotent tool, a tool whose policy allows retries, or an `llm` step.
   * An executor must not start a step that is not repeatable a second time
   * (after a restart, say); when it cannot tell whether a started attempt
   * finished, it ends the step with the error code `outcome-unknown`.
   */
  readonly repeatable: boolean;
  /**
   * Runs one attempt exactly as the runtime would: emits `step-start`,
   * calls the tool or model under the time limit, counts it against the
   * budgets and, when it fails and `retryable` is true, emits the
   * non-final `step-error` and the `step-retry` that announce the next
   * attempt. Never rejects.
   *
   * @param options - the attempt's number and the delay before the next one.
   * @returns the attempt's outcome.
   */
  attempt(options?: StepAttemptOptions): Promise<StepAttemptOutcome>;
  /**
   * Reports that the outcome the executor returns without calling
   * `attempt()` comes from attempts an earlier process made (a durable
   * engine's stored result), so the budgets count them as they did then:
   * a tool call or a model call each (or a cache hit), and the terminal
   * event carries the last attempt's number. The run's result cache learns
   * from it as from a live attempt: a stored read's value serves an
   * identical read later in the run, and a stored side effect makes
   * earlier reads stale.
   *
   * @param attempts - how many attempts of this call ran.
   * @param cached - whether the value came from the result cache.
   */
  replayed(attempts: number, cached: boolean): void;
}

/**
 * Runs a step's attempts in place of the runtime's own retry loop, e.g.
 * each step inside one durable `step.do` of Cloudflare Workflows. It calls
 * `call.attempt()` once per attempt and decides when to retry (the runtime
 * does not retry what the executor returns); it may also return a value it
 * stored earlier without calling `attempt()` at all. Its outcome is the
 * step's: the runtime then emits the terminal event, and after a failure
 * asks the reflector and re-plans as usual. A rejection counts as a failure
 * with the error's message. Scheduling, the safety policy, references,
 * skips and events stay the runtime's.
 *
 * @param call - the step, its resolved input and policy, and the attempt function.
 * @returns the step's outcome.
 *
 * @example
 * ```ts
 * const executeStep: StepExecutor = async (call) => {
 *   for (;;) {
 *     const outcome = await call.attempt();
 *     if (outcome.ok || !outcome.retryable) return outcome;
 *   }
 * };
 * const runtime = new AgentRuntime({ planner, registry, executeStep });
 * ```
 */
export type StepExecutor = (call: StepCall) => Promise<StepAttemptOutcome>;
