/**
 * A list of values that grows as they arrive, readable as an async iterable:
 * the page pushes the run events `useChat` hands to `onData`, and a run store
 * of plankit/ui reads them. Every reader starts at the first value, so a
 * store made after the first events arrived (or made again) misses none.
 */
export interface EventFeed<T> extends AsyncIterable<T> {
  /** Adds a value; readers waiting for one get it. */
  push(value: T): void;
  /** Ends the feed: readers finish after the last value. */
  end(): void;
  /** Whether `end()` was called. */
  readonly ended: boolean;
}

/**
 * Creates an empty feed.
 *
 * @returns the feed.
 * @example
 * ```ts
 * const feed = createEventFeed<RuntimeEvent>();
 * const store = createRunStore(feed);
 * feed.push(event);
 * ```
 */
export function createEventFeed<T>(): EventFeed<T> {
  const values: T[] = [];
  let ended = false;
  let waiting: (() => void)[] = [];
  const wake = (): void => {
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  return {
    push(value) {
      if (ended) throw new Error(`push: the feed ended after ${values.length} values; it takes no more`);
      values.push(value);
      wake();
    },
    end() {
      ended = true;
      wake();
    },
    get ended() {
      return ended;
    },
    async *[Symbol.asyncIterator]() {
      for (let index = 0; ; index++) {
        while (index >= values.length) {
          if (ended) return;
          await new Promise<void>((resolve) => waiting.push(resolve));
        }
        yield values[index] as T;
      }
    },
  };
}
