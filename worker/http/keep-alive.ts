/**
 * Keeping a request's work alive after its response.
 *
 * @module
 */
import type { Context } from "hono";

/**
 * Asks the runtime to keep the request's context alive until `work`
 * settles (`ExecutionContext.waitUntil`). Without it, workerd drops a
 * request's context once its response ends or fails — a client that goes
 * away mid-stream would leave the run's tools cut off wherever they were,
 * instead of aborted through their signals, and its pending reads would
 * fail as uncaught "Network connection lost" errors. With it, the
 * request's signal fires, the run is aborted and ends cleanly. Does
 * nothing where there is no execution context (a direct call in tests).
 *
 * @param c - the request's context.
 * @param work - what to wait for; its rejection is ignored.
 *
 * @example
 * ```ts
 * keepAlive(c, run.done);
 * ```
 */
export function keepAlive(c: Context, work: Promise<unknown>): void {
  let context: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    context = c.executionCtx;
  } catch {
    // Hono throws when the app was called without an execution context.
    return;
  }
  context.waitUntil(
    work.then(
      () => undefined,
      () => undefined,
    ),
  );
}
