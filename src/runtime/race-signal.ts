/**
 * Waiting for a promise unless a signal fires first.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";

/**
 * The error a fired signal stands for: its reason when that is a plankit
 * error (a timeout, a deadline), else an `aborted` error.
 *
 * @param signal - a fired signal.
 * @returns the error.
 */
function abortErrorOf(signal: AbortSignal): PlankitError {
  const reason: unknown = signal.reason;
  if (PlankitError.isInstance(reason)) return reason;
  return new PlankitError("aborted", "The run was aborted", { cause: reason });
}

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
  if (signal.aborted) return Promise.reject(abortErrorOf(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortErrorOf(signal));
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
