/**
 * The delay the Workflows engine waits before retrying a step.
 *
 * @module
 */
import type { DurableStepConfig } from "./durable-step.ts";

/**
 * The delay, in milliseconds, before the attempt after `attempt` failed, as
 * the engine computes it from a numeric `retries.delay`: constant, linear
 * (`delay × attempt`) or exponential (`delay × 2^(attempt−1)`).
 *
 * @param config - the step's configuration (see `toStepConfig`).
 * @param attempt - the attempt that failed, 1 for the first.
 * @returns the delay, or 0 when the configuration has no numeric delay.
 *
 * @example
 * ```ts
 * computeEngineRetryDelay({ retries: { limit: 3, delay: 100, backoff: "exponential" } }, 3); // 400
 * ```
 */
export function computeEngineRetryDelay(config: DurableStepConfig, attempt: number): number {
  const delay = config.retries?.delay;
  if (typeof delay !== "number") return 0;
  if (config.retries?.backoff === "exponential") return delay * 2 ** Math.max(0, attempt - 1);
  if (config.retries?.backoff === "linear") return delay * attempt;
  return delay;
}
