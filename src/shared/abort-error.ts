/**
 * The one error a fired signal stands for.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";

/**
 * The error thrown when a signal fired: its reason when that is a plankit
 * error (a run's timeout, deadline or budget), else an `aborted` error
 * saying what was interrupted.
 *
 * @param signal - the fired signal.
 * @param what - what was interrupted, e.g. `The run`.
 * @returns the error.
 *
 * @example
 * ```ts
 * if (signal.aborted) throw abortError(signal, "Planning");
 * ```
 */
export function abortError(signal: AbortSignal, what: string): PlankitError {
  const reason: unknown = signal.reason;
  return PlankitError.isInstance(reason)
    ? reason
    : new PlankitError("aborted", `${what} was aborted`, { cause: reason });
}
