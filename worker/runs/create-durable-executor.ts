/**
 * Running each plan step as one durable Workflow step.
 *
 * @module
 */
import type { RuntimeErrorInfo, StepExecutor } from "../../src/index.ts";
import { computeEngineRetryDelay } from "./compute-engine-retry-delay.ts";
import type { DurableStep } from "./durable-step.ts";
import { durableStepName } from "./durable-step-name.ts";
import { toStepConfig } from "./to-step-config.ts";

/** What the engine stores for a plan step: its value, or the failure no retry can fix. */
type StoredOutcome = { ok: true; value: unknown } | { ok: false; error: RuntimeErrorInfo };

/**
 * Reads the error the engine threw for a step (its retries ran out, or its
 * attempt timed out): the `[code] message` form a failed attempt is thrown
 * in, or the engine's own message.
 *
 * @param error - what `step.do` threw.
 * @returns the error as plain JSON.
 */
function readEngineError(error: unknown): RuntimeErrorInfo {
  const name = error instanceof Error ? error.name : "";
  const text = error instanceof Error ? error.message : String(error);
  const match = /\[([a-z][a-z0-9-]*)\] ([\s\S]*)$/u.exec(text);
  if (match?.[1] !== undefined && match[2] !== undefined) return { code: match[1], message: match[2] };
  return { code: /timeout/iu.test(name) || /timed out/iu.test(text) ? "timeout" : "tool-error", message: text };
}

/**
 * Creates the runtime's `executeStep` for a Workflow: each `tool` or `llm`
 * step runs inside one `step.do`, named by `durableStepName` (step id and
 * a hash of the resolved input), configured by `toStepConfig` (the step's
 * retries and time limit). Each engine attempt is one runtime attempt,
 * numbered as the engine numbers it, and its events are in the session log
 * before the engine records the attempt. A failure the policy allows to
 * retry is thrown, so the engine retries it after its delay; a value, or a
 * failure no retry can fix, is returned and stored — a replay then gets
 * the same outcome without calling the tool again.
 *
 * @param step - the Workflow's steps.
 * @param flush - sends the run's pending events to the session log.
 * @returns the executor.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry, executeStep: createDurableExecutor(step, () => outbox.flush()) });
 * ```
 */
export function createDurableExecutor(step: DurableStep, flush: () => Promise<void>): StepExecutor {
  return async (call) => {
    const name = await durableStepName(call.step.id, call.input);
    const config = toStepConfig(call);
    let stored: StoredOutcome;
    try {
      stored = await step.do(name, config, async (context): Promise<StoredOutcome> => {
        const outcome = await call.attempt({
          number: context.attempt,
          retryDelayMs: computeEngineRetryDelay(config, context.attempt),
        });
        // The log is best effort here: a session object that cannot be reached must not fail the tool call that succeeded.
        await flush().catch(() => undefined);
        if (outcome.ok) return { ok: true, value: JSON.parse(JSON.stringify(outcome.value ?? null)) as unknown };
        if (outcome.retryable) throw new Error(`[${outcome.error.code}] ${outcome.error.message}`);
        return { ok: false, error: outcome.error };
      });
    } catch (error) {
      return { ok: false, error: readEngineError(error), retryable: false };
    }
    return stored.ok
      ? { ok: true, value: stored.value, cached: false }
      : { ok: false, error: stored.error, retryable: false };
  };
}
