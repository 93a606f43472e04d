/**
 * Runs a request on the Worker.
 *
 * @module
 */
import type { DemoEvent } from "./demo-event.ts";
import { readServerSentEvents } from "./read-server-sent-events.ts";

/** Options of {@link runOnWorker}. */
export interface RunOnWorkerOptions {
  /** A bearer token, when the Worker sets `PLANKIT_TOKEN`. */
  token?: string;
  /** Stops the run: the request is cancelled, and the Worker aborts the run. */
  signal?: AbortSignal;
  /** The API's base URL; the page's origin by default. */
  baseUrl?: string;
}

/**
 * Posts the request to `POST /v1/run` and yields the streamed events
 * (`model` first, `run-end` last).
 *
 * @param query - the request.
 * @param options - token, abort signal and base URL.
 * @returns the events.
 * @throws Error with the problem details' `detail` when the Worker refuses the request.
 *
 * @example
 * ```ts
 * for await (const event of runOnWorker("What is 21*2+5?")) console.log(event.type);
 * ```
 */
export async function* runOnWorker(query: string, options: RunOnWorkerOptions = {}): AsyncGenerator<DemoEvent> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (options.token !== undefined && options.token !== "") headers["authorization"] = `Bearer ${options.token}`;
  const init: RequestInit = { method: "POST", headers, body: JSON.stringify({ query }) };
  if (options.signal !== undefined) init.signal = options.signal;
  const response = await fetch(new URL("/v1/run", options.baseUrl ?? location.href), init);
  if (!response.ok || response.body === null) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = (await response.json()) as { detail?: string };
      if (typeof problem.detail === "string") detail = `${response.status}: ${problem.detail}`;
    } catch {
      // Not problem details: keep the status line.
    }
    throw new Error(`The Worker refused the request (${detail})`);
  }
  for await (const message of readServerSentEvents(response.body, options.signal)) {
    yield JSON.parse(message.data) as DemoEvent;
  }
}
