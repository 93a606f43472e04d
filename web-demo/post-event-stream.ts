/**
 * Posting JSON to the Worker and reading its Server-Sent Events.
 *
 * @module
 */
import { readServerSentEvents } from "./read-server-sent-events.ts";

/** Options of the Worker calls: token, abort signal and base URL. */
export interface WorkerCallOptions {
  /** A bearer token, when the Worker sets `PLANKIT_TOKEN`. */
  token?: string;
  /** Stops the call: the request is cancelled, and the Worker aborts its work. */
  signal?: AbortSignal;
  /** The API's base URL; the page's origin by default. */
  baseUrl?: string;
}

/**
 * Posts `body` as JSON to `path` and yields each streamed event's parsed data.
 *
 * @param path - the route, e.g. `/v1/run`.
 * @param body - the JSON body.
 * @param options - token, abort signal and base URL.
 * @returns the events' data, in order.
 * @throws Error with the problem details' `detail` when the Worker refuses the request; an Error naming the URL when the Worker cannot be reached.
 *
 * @example
 * ```ts
 * for await (const event of postEventStream<{ type: string }>("/v1/run", { query })) console.log(event.type);
 * ```
 */
export async function* postEventStream<T>(path: string, body: unknown, options: WorkerCallOptions = {}): AsyncGenerator<T> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (options.token !== undefined && options.token !== "") headers["authorization"] = `Bearer ${options.token}`;
  const init: RequestInit = { method: "POST", headers, body: JSON.stringify(body) };
  if (options.signal !== undefined) init.signal = options.signal;
  const url = new URL(path, options.baseUrl ?? location.href);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    // Browsers say only "Failed to fetch": name the address and what to check.
    throw new Error(
      `Could not reach the Worker at ${url.href} (${error instanceof Error ? error.message : String(error)}). Check that it is running (npm start serves it on http://localhost:8787) and that this page was opened from it, or run the request in this browser instead.`,
      { cause: error },
    );
  }
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
    yield JSON.parse(message.data) as T;
  }
}
