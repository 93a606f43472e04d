/**
 * Running each plan step as one durable Workflow step.
 *
 * @module
 */
import type { RuntimeErrorInfo } from "../../src/events.ts";
import type { StepExecutor } from "../../src/runtime.ts";
import { computeEngineRetryDelay } from "./compute-engine-retry-delay.ts";
import type { DurableStep } from "./durable-step.ts";
import { durableStepName } from "./durable-step-name.ts";
import { toStepConfig } from "./to-step-config.ts";

/**
 * What the engine stores for a plan step: its value, or the failure no
 * retry can fix, with how many attempts ran and whether the value came from
 * the run's result cache (a replay counts them against the budgets).
 */
type StoredOutcome = ({ ok: true; value: unknown } | { ok: false; error: RuntimeErrorInfo }) & {
  attempts?: number;
  cached?: boolean;
  refused?: boolean;
};

/** A marker step (runs made before claims) stores only that its step started: no retries, a short limit. */
const markerConfig = { retries: { limit: 0, delay: 0 }, timeout: 10_000 } as const;

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
 * a hash of the resolved input; a second series of the same step — after
 * a reflector's retry — is the name's next occurrence), configured by
 * `toStepConfig` (the step's retries and time limit). Each engine attempt
 * is one runtime attempt, numbered as the engine numbers it, and its
 * events are in the session log before the engine records the attempt. A
 * failure the policy allows to retry is thrown, so the engine retries it
 * after its delay; a value, or a failure no retry can fix, is returned and
 * stored — a replay then gets the same outcome without calling the tool
 * again, and the budgets count the attempts it stored.
 *
 * A step that is not repeatable (a tool neither read-only nor idempotent,
 * without retries of its own, so its `step.do` has no engine retries)
 * claims its start in the session object before the tool is called, inside
 * its own `step.do`: `claimStart(runId, "<name>/<occurrence>")`, awaited.
 * When an execution finds the claim made by an earlier one — the process
 * stopped while the tool ran, the step's outcome was not stored, and the
 * engine runs the step's callback again — the tool is not called a second
 * time: the step fails with `outcome-unknown`, stored like any outcome,
 * and the reflector or a re-plan decides what follows. A stored outcome
 * means the callback never runs again, so it never sees the claim. A claim
 * that cannot be made fails the step (`tool-error`) without calling the
 * tool. Without `claimStart` (runs made before claims, `engine` 2), the
 * step first stores a marker step, `<name>:started`, instead, and the same
 * holds with the marker stored and the outcome not.
 *
 * @param step - the Workflow's steps.
 * @param flush - sends the run's pending events to the session log.
 * @param claimStart - claims a step's start in the run's session; `true` for the first claim of a key.
 * @returns the executor.
 *
 * @example
 * ```ts
 * const executeStep = createDurableExecutor(step, () => outbox.flush(), (runId, key) => session.claimStart(runId, key));
 * const runtime = new AgentRuntime({ planner, registry, executeStep });
 * ```
 */
export function createDurableExecutor(
  step: DurableStep,
  flush: () => Promise<void>,
  claimStart?: (runId: string, key: string) => Promise<boolean>,
): StepExecutor {
  // The engine tells a step's occurrences apart by the order of its calls in an execution; so do the claims.
  const occurrences = new Map<string, number>();
  return async (call) => {
    const name = await durableStepName(call.step.id, call.input);
    const occurrence = (occurrences.get(name) ?? 0) + 1;
    occurrences.set(name, occurrence);
    const config = toStepConfig(call);
    const claim = call.repeatable ? undefined : claimStart;
    let marked = call.repeatable || claim !== undefined;
    if (!marked) {
      await step.do(`${name}:started`, markerConfig, async () => {
        marked = true;
        return true;
      });
    }
    // Set once this execution may call the tool: a retry the engine makes within it knows how the last attempt ended.
    let claimed = false;
    let entered = false;
    let ran = false;
    let stored: StoredOutcome;
    try {
      stored = await step.do(name, config, async (context): Promise<StoredOutcome> => {
        entered = true;
        if (claim !== undefined && !claimed) {
          let first: boolean;
          try {
            first = await claim(call.runId, `${name}/${occurrence}`);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new Error(
              `[tool-error] Step "${call.step.id}" was not started: its start could not be recorded in the session (${reason})`,
            );
          }
          marked = first;
          claimed = true;
        }
        if (!marked) {
          return {
            ok: false,
            error: {
              code: "outcome-unknown",
              message: `Step "${call.step.id}" was started before a restart and its outcome was not stored; it is not started again`,
            },
            attempts: 1,
          };
        }
        ran = true;
        const outcome = await call.attempt({
          number: call.previousAttempts + context.attempt,
          retryDelayMs: computeEngineRetryDelay(config, context.attempt),
        });
        // The log is best effort here: a session object that cannot be reached must not fail the tool call that succeeded.
        await flush().catch(() => undefined);
        if (outcome.ok)
          return {
            ok: true,
            value: JSON.parse(JSON.stringify(outcome.value ?? null)) as unknown,
            attempts: context.attempt,
            cached: outcome.cached,
          };
        if (outcome.retryable) throw new Error(`[${outcome.error.code}] ${outcome.error.message}`);
        return {
          ok: false,
          error: outcome.error,
          attempts: context.attempt,
          ...(outcome.refused === true ? { refused: true } : {}),
        };
      });
    } catch (error) {
      // A failure the engine stored earlier: its attempts (the first and every retry) were counted then.
      // A claim this execution could not make started nothing: it counts nothing.
      if (!ran && !entered) call.replayed((config.retries?.limit ?? 0) + 1, false);
      return { ok: false, error: readEngineError(error), retryable: false };
    }
    if (stored.ok) {
      if (!ran) call.replayed(stored.attempts ?? 1, stored.cached === true);
      return { ok: true, value: stored.value, cached: stored.cached === true };
    }
    // A refusal started nothing: it counts nothing.
    if (stored.refused === true) return { ok: false, error: stored.error, retryable: false, refused: true };
    if (!ran) call.replayed(stored.attempts ?? 1, false);
    return { ok: false, error: stored.error, retryable: false };
  };
}
