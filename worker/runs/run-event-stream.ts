/**
 * A run's event log as Server-Sent Events.
 *
 * @module
 */
import { formatSse, formatSseComment } from "../../src/events.ts";
import type { RunLog } from "./run-log.ts";

/** How long an event stream waits without news before it sends a comment to keep the connection open. */
const keepAliveMs = 15_000;

/**
 * The event streams waiting for a run's next event: an append wakes them.
 *
 * @example
 * ```ts
 * const waiters = new EventWaiters();
 * const woke = await waiters.wait("run_1", 15_000, () => undefined); // true once wake("run_1") is called
 * ```
 */
export class EventWaiters {
  readonly #waiters = new Map<string, Set<() => void>>();

  /**
   * Waits for the run's next event, or `ms`.
   *
   * @param runId - the run.
   * @param ms - the longest wait.
   * @param register - receives a function that ends the wait early.
   * @returns whether an event came (false after `ms` or an early end).
   */
  wait(runId: string, ms: number, register: (stop: () => void) => void): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(runId) ?? new Set<() => void>();
      this.#waiters.set(runId, waiters);
      const finish = (woke: boolean): void => {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(woke);
      };
      const wake = (): void => finish(true);
      const timer = setTimeout(() => finish(false), ms);
      waiters.add(wake);
      register(() => finish(false));
    });
  }

  /**
   * New events were logged: the streams waiting for the run go on.
   *
   * @param runId - the run.
   */
  wake(runId: string): void {
    const waiters = this.#waiters.get(runId);
    this.#waiters.delete(runId);
    for (const wake of waiters ?? []) wake();
  }
}

/**
 * The SSE body of a run's events after `after`: `id: <seq>`,
 * `event: <type>`, `data: <json>` per event, a comment every 15 s of
 * silence, closed after `run-end`. (The Worker's route redacts secrets
 * from it, as from every response.)
 *
 * @param log - the session's run log.
 * @param runId - the run.
 * @param after - the last event id the client has.
 * @param waitForEvents - waits up to `ms` for new events (true) or none (false); `register` receives a stop.
 * @returns the stream.
 *
 * @example
 * ```ts
 * return new Response(createRunEventStream(log, runId, 0, wait), { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function createRunEventStream(
  log: RunLog,
  runId: string,
  after: number,
  waitForEvents: (ms: number, register: (stop: () => void) => void) => Promise<boolean>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor = after;
  let cancelled = false;
  let stopWaiting: () => void = () => undefined;
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      while (!cancelled) {
        const rows = log.eventsAfter(runId, cursor, 64);
        if (rows.length > 0) {
          const text = rows.map((row) => formatSse({ id: row.seq, event: row.type, data: row.data })).join("");
          controller.enqueue(encoder.encode(text));
          cursor = rows[rows.length - 1]?.seq ?? cursor;
          return;
        }
        if (log.row(runId)?.ended !== 0) {
          controller.close();
          return;
        }
        const woke = await waitForEvents(keepAliveMs, (stop) => {
          stopWaiting = stop;
        });
        if (!woke && !cancelled) {
          controller.enqueue(encoder.encode(formatSseComment("keep-alive")));
          return;
        }
      }
    },
    cancel: () => {
      cancelled = true;
      stopWaiting();
    },
  });
}
