/**
 * When a stream of events is over.
 *
 * @module
 */

/**
 * Wraps events so that their end is known: `ended` resolves once the
 * events have ended (however: done, thrown or returned early) or `signal`
 * has fired, whichever comes first — what `keepAlive` waits for.
 *
 * @param source - the events.
 * @param signal - the request's work signal.
 * @returns the same events, and the promise of their end.
 *
 * @example
 * ```ts
 * const { events, ended } = trackEnd(planner.stream(request), controller.signal);
 * keepAlive(c, ended);
 * ```
 */
export function trackEnd<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
): { events: AsyncGenerator<T>; ended: Promise<void> } {
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
  async function* events(): AsyncGenerator<T> {
    try {
      yield* source;
    } finally {
      end();
    }
  }
  return { events: events(), ended };
}
