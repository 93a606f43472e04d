/**
 * The default step executor: attempts with retries and backoff.
 *
 * @module
 */
import { computeBackoff } from "../compute-backoff.ts";
import type { StepExecutor } from "../step-executor.ts";

/**
 * Builds the executor the runtime uses when the application gives none:
 * attempts until one succeeds or a failure is not retryable (the policy's
 * retries are spent, or the error is permanent), waiting an exponential
 * backoff with jitter between attempts.
 *
 * @param random - the jitter source.
 * @param sleep - waits, ending early (rejecting) when the signal fires.
 * @returns the executor.
 *
 * @example
 * ```ts
 * const executeStep = createRetryingExecutor(Math.random, (ms, signal) => delay(ms, signal));
 * ```
 */
export function createRetryingExecutor(
  random: () => number,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): StepExecutor {
  return async (call) => {
    for (let number = 1; ; number++) {
      const retryDelayMs = computeBackoff(number, call.backoff, random);
      const outcome = await call.attempt({ retryDelayMs });
      if (outcome.ok || !outcome.retryable) return outcome;
      try {
        await sleep(retryDelayMs, call.signal);
      } catch {
        return {
          ok: false,
          error: { code: "aborted", message: "The run ended while a retry waited" },
          retryable: false,
        };
      }
    }
  };
}
