/**
 * Following a session or durable run's event stream over `fetch`, with resume.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { describeHttpFailure } from "./describe-http-failure.ts";
import { readRunEvents } from "./read-run-events.ts";

/** Where a followed stream stands. */
type FollowStatus = "connecting" | "open" | "reconnecting";

/** How {@link followRunEvents} reads. */
export interface FollowRunEventsOptions {
  fetch: typeof fetch;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  signal: AbortSignal;
  /** The first wait before reconnecting, doubled after each failure in a row (up to 30 s); a server's `retry:` replaces it. */
  retryMs: number;
  /** Reconnects after failed connections in a row before giving up (at the failure after them). */
  maxRetries: number;
  /** Waits; injected so tests need no timers. */
  delay(ms: number, signal: AbortSignal): Promise<void>;
  onEvent(event: RuntimeEvent, id: string | undefined): void;
  onStatus(status: FollowStatus): void;
}

/**
 * Whether an SSE id is at or before the last one seen (both whole numbers),
 * so that an event a server sends again is not applied twice.
 *
 * @param id - the new id.
 * @param last - the last id seen.
 * @returns `true` for a repeat.
 */
function isRepeat(id: string, last: string | undefined): boolean {
  return last !== undefined && /^\d+$/u.test(id) && /^\d+$/u.test(last) && Number(id) <= Number(last);
}

/**
 * Reads `GET /v1/runs/:id/events` (or any SSE stream of run events) until
 * the run ends: after a dropped connection it reconnects with
 * `Last-Event-ID`, so no event is lost or applied twice; `run-end` or a
 * `204 No Content` ends it. A `4xx` answer, or more than `maxRetries` failures in a
 * row, is an error.
 *
 * @param url - the event stream's URL.
 * @param options - fetch, token, signal, retry policy and handlers.
 * @returns when the run's stream is over.
 * @throws PlankitError `invalid-options` naming the URL, the status and the server's problem; `json-syntax` for a message that is not an event.
 *
 * @example
 * ```ts
 * await followRunEvents("https://host/v1/runs/r1/events", { fetch, signal, retryMs: 1000, maxRetries: 5, delay, onEvent, onStatus });
 * ```
 */
export async function followRunEvents(url: string, options: FollowRunEventsOptions): Promise<void> {
  let lastEventId: string | undefined;
  let failures = 0;
  let retryMs = options.retryMs;
  let ended = false;
  const fail = async (why: string, cause?: unknown): Promise<void> => {
    failures++;
    if (failures > options.maxRetries) {
      throw new PlankitError(
        "invalid-options",
        `Gave up reading ${url} after ${failures} failed connections in a row: ${why}`,
        { cause },
      );
    }
    options.onStatus("reconnecting");
    await options.delay(Math.min(retryMs * 2 ** (failures - 1), 30_000), options.signal);
  };
  for (let first = true; ; first = false) {
    options.signal.throwIfAborted();
    if (first) options.onStatus("connecting");
    const headers = new Headers({ accept: "text/event-stream" });
    if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
    if (lastEventId !== undefined) headers.set("last-event-id", lastEventId);
    let response: Response;
    try {
      response = await options.fetch(url, { headers, signal: options.signal, cache: "no-store" });
    } catch (error) {
      options.signal.throwIfAborted();
      await fail(`the request failed: ${String(error)}`, error);
      continue;
    }
    if (response.status === 204) return;
    if (!response.ok) {
      const why = await describeHttpFailure("GET", url, response);
      if (response.status >= 500 || response.status === 429) {
        await fail(why);
        continue;
      }
      throw new PlankitError("invalid-options", why);
    }
    const type = response.headers.get("content-type") ?? "";
    if (response.body === null || !type.startsWith("text/event-stream")) {
      await response.body?.cancel().catch(() => {});
      throw new PlankitError(
        "invalid-options",
        `GET ${url} answered ${response.status} with ${type === "" ? "no content type" : JSON.stringify(type)}, not text/event-stream`,
      );
    }
    options.onStatus("open");
    let received = false;
    try {
      await readRunEvents(
        response.body,
        "sse",
        {
          onEvent: (event, id) => {
            if (id !== undefined) {
              if (isRepeat(id, lastEventId)) return;
              lastEventId = id;
            }
            received = true;
            failures = 0;
            if (event.type === "run-end") ended = true;
            options.onEvent(event, id);
          },
          onRetry: (ms) => {
            retryMs = ms;
          },
        },
        options.signal,
      );
    } catch (error) {
      options.signal.throwIfAborted();
      if (PlankitError.isInstance(error)) throw error;
      if (ended) return;
      await fail(
        `the stream broke off${lastEventId === undefined ? "" : ` after event ${lastEventId}`}: ${String(error)}`,
        error,
      );
      continue;
    }
    if (ended) return;
    // Closed before run-end: resume where it stopped.
    if (!received)
      await fail(
        `the stream closed with no new event${lastEventId === undefined ? "" : ` after event ${lastEventId}`}`,
      );
    else options.onStatus("reconnecting");
  }
}
