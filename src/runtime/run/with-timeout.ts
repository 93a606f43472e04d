/**
 * Work with a time limit.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import { clampTimerMs } from "../../shared/clamp-timer-ms.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import { raceSignal } from "../race-signal.ts";

/**
 * Runs work with its own abort signal, fired by the time limit or by the
 * parent signal. The wait ends when that signal fires, even if the work
 * ignores it; a value that arrives later is dropped.
 *
 * @param clock - the timers.
 * @param timeoutMs - the limit (clamped to a valid timer range).
 * @param parent - the run's signal.
 * @param message - the timeout error's message.
 * @param work - the work, given its signal; may throw synchronously.
 * @returns the work's value.
 * @throws PlankitError `timeout` with `message`, or the parent's abort reason.
 *
 * @example
 * ```ts
 * await withTimeout(systemClock, 5_000, run.signal, 'Step "s1" timed out after 5000 ms', (signal) => fetch(url, { signal }));
 * ```
 */
export function withTimeout<T>(
  clock: RuntimeClock,
  timeoutMs: number,
  parent: AbortSignal,
  message: string,
  work: (signal: AbortSignal) => PromiseLike<T> | T,
): Promise<T> {
  const controller = new AbortController();
  const onParentAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onParentAbort();
  else parent.addEventListener("abort", onParentAbort, { once: true });
  const timer = clock.setTimeout(
    () => controller.abort(new PlankitError("timeout", message)),
    clampTimerMs(timeoutMs, timeoutMs),
  );
  let promise: PromiseLike<T>;
  try {
    promise = Promise.resolve(work(controller.signal));
  } catch (error) {
    promise = Promise.reject(error);
  }
  return raceSignal(promise, controller.signal).finally(() => {
    clock.clearTimeout(timer);
    parent.removeEventListener("abort", onParentAbort);
  });
}
