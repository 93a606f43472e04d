/**
 * A run's abort controller, tied to its client.
 *
 * @module
 */

/**
 * Creates the controller of one request's work and aborts it when the
 * client goes away (`signal`, the request's, fires): the plan, the run and
 * every model and tool call in it stop, whether the response is streamed
 * or not.
 *
 * @param signal - the request's signal.
 * @returns the controller; abort it too when a stream is cancelled.
 *
 * @example
 * ```ts
 * const controller = abortOnDisconnect(c.var.signal);
 * const run = runtime.run(query, { signal: controller.signal });
 * ```
 */
export function abortOnDisconnect(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  const disconnected = (): void => controller.abort(new Error("The client disconnected"));
  if (signal?.aborted === true) disconnected();
  else signal?.addEventListener("abort", disconnected, { once: true });
  return controller;
}
