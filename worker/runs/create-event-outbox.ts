/**
 * Sending a run's events to its session log.
 *
 * @module
 */
import type { RuntimeEvent } from "../../src/index.ts";
import { createEventKeyer } from "./create-event-keyer.ts";
import type { LoggedEvent } from "./logged-event.ts";

/** Where an outbox sends events: the session object's `append`. */
export interface EventSink {
  append(runId: string, items: LoggedEvent[]): Promise<unknown>;
}

/** What {@link createEventOutbox} returns. */
export interface EventOutbox {
  /**
   * Sends every event not sent yet, after the sends already under way.
   *
   * @returns resolves once they are in the log; rejects when the log could not be reached after retries.
   */
  flush(): Promise<void>;
  /** Stops sending for good: the execution is being torn down and must not write what it still emits. */
  halt(): void;
}

/**
 * Creates an outbox over a run's growing event list (a `RunHandle`'s
 * `events`): each flush sends the events added since the last one, keyed
 * by {@link createEventKeyer}, in order, one batch at a time. A failed send
 * is tried three times before the flush rejects; its events stay pending
 * and go out, in order, with the next flush.
 *
 * @param sink - the session object.
 * @param runId - the run.
 * @param events - the run's events so far; the outbox only reads it.
 * @param shiftMs - added to each event's `t` (and to `run-end`'s
 *   `durationMs`): how long the run had existed when this execution began,
 *   so times in the log count from the run's start across executions.
 * @returns the outbox.
 *
 * @example
 * ```ts
 * const outbox = createEventOutbox(session, run.runId, run.events);
 * for await (const _event of run) void outbox.flush().catch(() => undefined);
 * await outbox.flush();
 * ```
 */
export function createEventOutbox(
  sink: EventSink,
  runId: string,
  events: readonly RuntimeEvent[],
  shiftMs = 0,
): EventOutbox {
  const keyOf = createEventKeyer();
  const pending: LoggedEvent[] = [];
  let keyed = 0;
  let chain: Promise<void> = Promise.resolve();
  let halted = false;
  const send = async (): Promise<void> => {
    if (pending.length === 0 || halted) return;
    const batch = pending.slice();
    for (let attempt = 1; ; attempt++) {
      try {
        await sink.append(runId, batch);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
    pending.splice(0, batch.length);
  };
  return {
    flush() {
      for (; keyed < events.length; keyed++) {
        const event = events[keyed] as RuntimeEvent & { [member: string]: unknown };
        const key = keyOf(event);
        if (shiftMs === 0) pending.push({ key, event });
        else
          pending.push({
            key,
            event:
              event.type === "run-end"
                ? { ...event, t: event.t + shiftMs, durationMs: event.durationMs + shiftMs }
                : { ...event, t: event.t + shiftMs },
          });
      }
      // A failed batch stays pending and goes out with the next flush (the log ignores keys it has).
      chain = chain.catch(() => undefined).then(send);
      return chain;
    },
    halt() {
      halted = true;
    },
  };
}
