/**
 * A run source an application pushes events into.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";

/**
 * Events that arrive by a callback (`useChat`'s `onData`, a WebSocket's
 * `message`, a worker's `postMessage`), readable as an `AsyncIterable`: pass
 * it to `createRunStore` or a `<plankit-run>`'s `store`. Every reader starts
 * at the first event, so a store made after the first events arrived (or
 * made again) misses none.
 */
export interface EventFeed<T = RuntimeEvent> extends AsyncIterable<T> {
  /**
   * Adds an event; readers waiting for one get it.
   *
   * @param event - the event.
   * @throws PlankitError `invalid-input` after `end()`.
   */
  push(event: T): void;
  /** Ends the feed: readers finish after the last event. Calling it again does nothing. */
  end(): void;
  /** Whether `end()` was called. */
  readonly ended: boolean;
  /** The events pushed so far. */
  readonly events: readonly T[];
}

/**
 * Creates an empty feed.
 *
 * @returns the feed.
 *
 * @example
 * ```ts
 * const feed = createEventFeed();
 * const store = createRunStore(feed);
 * feed.push(event); // from onData, a socket, …
 * feed.end(); // after run-end, or when the connection closed
 * ```
 */
export function createEventFeed<T = RuntimeEvent>(): EventFeed<T> {
  const events: T[] = [];
  let ended = false;
  let waiting: (() => void)[] = [];
  const wake = (): void => {
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  return {
    push(event) {
      if (ended)
        throw new PlankitError(
          "invalid-input",
          `The event feed ended after ${events.length} events; it takes no more (got ${JSON.stringify((event as { type?: unknown } | null)?.type ?? null)})`,
        );
      events.push(event);
      wake();
    },
    end() {
      ended = true;
      wake();
    },
    get ended() {
      return ended;
    },
    events,
    async *[Symbol.asyncIterator]() {
      for (let index = 0; ; index++) {
        while (index >= events.length) {
          if (ended) return;
          await new Promise<void>((resolve) => waiting.push(resolve));
        }
        yield events[index] as T;
      }
    },
  };
}
