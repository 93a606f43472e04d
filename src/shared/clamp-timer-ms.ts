/**
 * Keeping delays inside what timers accept.
 *
 * @module
 */

/** The longest delay `setTimeout` honours everywhere (2^31 - 1 ms); longer ones fire at once. */
export const maxTimerMs = 2_147_483_647;

/**
 * Clamps a delay to a valid timer range: at least 1 ms, at most {@link maxTimerMs}.
 * `NaN` and non-numbers give `fallback`. Without this, a delay of 1e12 ms
 * overflows the timer and fires after 1 ms.
 *
 * @param ms - the requested delay.
 * @param fallback - the delay for a value that is not a number.
 * @returns the delay to give the timer.
 *
 * @example
 * ```ts
 * clampTimerMs(1e12, 30_000); // 2147483647
 * ```
 */
export function clampTimerMs(ms: unknown, fallback: number): number {
  const value = typeof ms === "number" && !Number.isNaN(ms) ? ms : fallback;
  return Math.min(maxTimerMs, Math.max(1, value));
}
