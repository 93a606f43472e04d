/**
 * Posting JSON to the Worker and reading its Server-Sent Events.
 *
 * @module
 */
import { fetchWorker, type WorkerCallOptions } from "./fetch-worker.ts";
import { readServerSentEvents } from "./read-server-sent-events.ts";

export type { WorkerCallOptions } from "./fetch-worker.ts";

/**
 * Posts `body` as JSON to `path` and yields each streamed event's parsed data.
 *
 * @param path - the route, e.g. `/v1/guide`.
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
export async function* postEventStream<T>(
  path: string,
  body: unknown,
  options: WorkerCallOptions = {},
): AsyncGenerator<T> {
  const response = await fetchWorker(path, { method: "POST", body, accept: "text/event-stream" }, options);
  if (response.body === null) throw new Error(`The Worker refused the request (${response.status}: an empty body)`);
  for await (const message of readServerSentEvents(response.body, options.signal)) {
    yield JSON.parse(message.data) as T;
  }
}
