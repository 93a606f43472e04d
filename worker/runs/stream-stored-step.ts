/**
 * Streams what a durable step produces while it runs, then what it stored.
 *
 * @module
 */

/** What a step stored: its items in order, and the error that ended it early, if any. */
export interface StoredItems<T> {
  items: readonly T[];
  error?: string | undefined;
}

/**
 * Runs a durable step and yields each item its callback hands out while it
 * runs (`emit`), as it comes; once the engine has stored the step, yields the
 * stored items past those already yielded, then throws the stored error if
 * there is one. A replay, whose step is not run again, gets every stored item
 * here; the execution that ran it gets the items its callback held back (those
 * the run must see only once they are stored).
 *
 * @param run - starts the step, calling `emit` from its callback for each item the run may see at once.
 * @param storedItems - reads the stored value's items and error.
 * @returns the items.
 * @throws what the step threw, or an `Error` with the stored error's message.
 *
 * @example
 * ```ts
 * yield* streamStoredStep((emit) => step.do("plan", config, () => planAndEmit(emit)), (stored) => ({ items: stored.events }));
 * ```
 */
export async function* streamStoredStep<T, S>(
  run: (emit: (item: T) => void) => Promise<S>,
  storedItems: (stored: S) => StoredItems<T>,
): AsyncGenerator<T, void> {
  const live: T[] = [];
  let wake: () => void = () => undefined;
  let settled: { stored: S } | { error: unknown } | undefined;
  run((item) => {
    live.push(item);
    wake();
  }).then(
    (stored) => {
      settled = { stored };
      wake();
    },
    (error: unknown) => {
      settled = { error };
      wake();
    },
  );
  let seen = 0;
  for (;;) {
    if (seen < live.length) {
      yield live[seen++] as T;
      continue;
    }
    if (settled !== undefined) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  const outcome = settled as { stored: S } | { error: unknown };
  if ("error" in outcome) throw outcome.error;
  const { items, error } = storedItems(outcome.stored);
  yield* items.slice(seen);
  if (error !== undefined) throw new Error(error);
}
