/**
 * Waiting for a promise unless a signal fires first.
 *
 * @module
 */
import { abortError } from "../shared/abort-error.ts";

/**
 * Settles with `promise`, or rejects as soon as `signal` fires, whichever
 * comes first. The promise's own late rejection is caught, so a tool that
 * ignores its signal and fails later never causes an unhandled rejection.
 *
 * @param promise - the work.
 * @param signal - the signal that ends the wait.
 * @returns the work's value.
 * @throws the work's error, or the signal's reason when it is a `PlankitError` (else an `aborted` one).
 *
 * @example
 * ```ts
 * const result = await raceSignal(registry.call("search", args, { signal }), signal);
 * ```
 */
export function raceSignal<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  const work = Promise.resolve(promise);
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(abortError(signal, "The run"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal, "The run"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
