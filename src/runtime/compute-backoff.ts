/**
 * The delay before a retry.
 *
 * @module
 */

/** How retries are spaced. */
export interface BackoffPolicy {
  /**
   * The delay before the first retry, in milliseconds.
   *
   * @defaultValue `100`
   */
  initialMs?: number;
  /**
   * The factor each further retry multiplies the delay by.
   *
   * @defaultValue `2`
   */
  factor?: number;
  /**
   * The longest delay, in milliseconds.
   *
   * @defaultValue `5000`
   */
  maxMs?: number;
  /**
   * The share of the delay drawn at random: the delay is
   * `base × (1 − jitter × random())`, so retries of many steps that failed
   * together do not hit a recovering service at the same instant.
   *
   * @defaultValue `0.5`
   */
  jitter?: number;
}

/**
 * Computes the delay before retry number `retry`: exponential growth from
 * `initialMs` by `factor`, capped at `maxMs`, minus a random share up to `jitter`.
 *
 * @param retry - 1 for the first retry.
 * @param policy - the backoff settings.
 * @param random - a source of numbers in [0, 1).
 * @returns the delay in milliseconds (an integer, at least 0).
 *
 * @example
 * ```ts
 * computeBackoff(3, { initialMs: 100, factor: 2, jitter: 0 }, Math.random); // 400
 * ```
 */
export function computeBackoff(retry: number, policy: BackoffPolicy, random: () => number): number {
  const initialMs = policy.initialMs ?? 100;
  const factor = policy.factor ?? 2;
  const maxMs = policy.maxMs ?? 5000;
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0.5));
  const base = Math.min(maxMs, initialMs * factor ** Math.max(0, retry - 1));
  return Math.max(0, Math.round(base * (1 - jitter * random())));
}
