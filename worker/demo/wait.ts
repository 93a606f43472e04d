/**
 * An abortable delay.
 *
 * @module
 */
import { PlankitError } from "../../src/index.ts";

/**
 * Waits `ms` milliseconds with `setTimeout`, rejecting as soon as `signal` fires.
 *
 * @param ms - how long to wait.
 * @param signal - cancels the wait.
 * @returns a promise that resolves after `ms`.
 * @throws PlankitError `aborted` when the signal fires first.
 *
 * @example
 * ```ts
 * await wait(250, request.signal);
 * ```
 */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new PlankitError("aborted", "The wait was aborted before it started", { cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new PlankitError("aborted", `The wait of ${ms} ms was aborted`, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
