/**
 * Rounds a duration to microseconds, so logs stay short.
 *
 * @param ms - milliseconds.
 * @returns the rounded value.
 *
 * @example
 * ```ts
 * roundMs(12.3456789); // 12.346
 * ```
 */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
