/**
 * The clock the runtime reads and sets timers on.
 *
 * @module
 */

/**
 * Time for the runtime: `now` for event offsets and durations, timers for
 * per-step timeouts, the deadline and retry delays. Inject one to make runs
 * deterministic in tests or to simulate time in benchmarks.
 *
 * @example
 * ```ts
 * const clock: RuntimeClock = { now: () => performance.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id as number) };
 * ```
 */
export interface RuntimeClock {
  /**
   * The current time in milliseconds (any origin).
   *
   * @returns the time.
   */
  now(): number;
  /**
   * Calls `callback` after `ms` milliseconds.
   *
   * @param callback - what to call.
   * @param ms - the delay.
   * @returns a handle for `clearTimeout`.
   */
  setTimeout(callback: () => void, ms: number): unknown;
  /**
   * Cancels a timer.
   *
   * @param handle - what `setTimeout` returned.
   */
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock: `performance.now()` when there is one, else `Date.now()`,
 * and the global timers.
 *
 * @example
 * ```ts
 * new AgentRuntime({ planner, registry, clock: systemClock });
 * ```
 */
export const systemClock: RuntimeClock = {
  now: () => (typeof performance !== "undefined" ? performance.now() : Date.now()),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
