/** A piece of work to time: synchronous, or returning a promise. */
export type BenchTask = () => unknown;

/**
 * Times one run of a task in milliseconds, garbage collections the run
 * causes included.
 *
 * No collection is forced before the run on purpose: a forced full GC
 * shrinks V8's young generation, so the next run pays for page faults and
 * early promotion (measured at 2–4× the steady-state time for a 400 KB parse),
 * which is not how a parser runs in a long-lived process.
 *
 * @param task - the work; a returned promise is awaited inside the timing.
 * @returns the wall-clock time of the run, in milliseconds.
 * @example
 * ```ts
 * const ms = await timeRun(() => JSON.parse(text));
 * ```
 */
export async function timeRun(task: BenchTask): Promise<number> {
  const start = performance.now();
  const result = task();
  // Only a promise is awaited, so a synchronous task pays no microtask inside the timing.
  if (result instanceof Promise) await result;
  return performance.now() - start;
}
