/**
 * Runs a request on the Worker.
 *
 * @module
 */
import type { DemoEvent } from "./demo-event.ts";
import { postEventStream, type WorkerCallOptions } from "./post-event-stream.ts";

/** Options of {@link runOnWorker}: token, abort signal and base URL. */
export type RunOnWorkerOptions = WorkerCallOptions;

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
export function runOnWorker(query: string, options: RunOnWorkerOptions = {}): AsyncGenerator<DemoEvent> {
  return postEventStream<DemoEvent>("/v1/run", { query }, options);
}
