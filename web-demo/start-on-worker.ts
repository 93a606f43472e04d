/**
 * Starts a request on the Worker as a session run, which can wait for a
 * person's approval.
 *
 * @module
 */
import { fetchWorker, type WorkerCallOptions } from "./fetch-worker.ts";

/**
 * Starts the request as a session run on the Worker (`POST /v1/runs` with
 * `durable: false`) and answers the URL of its event stream
 * (`GET /v1/runs/:id/events`), the source the page gives `createRunStore`:
 * the store follows it (resuming after the last event id when it drops),
 * sends decisions to `…/approvals` and stops the run with `…/cancel`.
 *
 * @param query - the request.
 * @param options - token, abort signal and base URL.
 * @returns the event stream's absolute URL.
 * @throws Error naming the URL when the Worker cannot be reached, or its problem when it refuses the request.
 *
 * @example
 * ```ts
 * view.store = createRunStore(await startOnWorker("What is 21*2+5?"), { token });
 * ```
 */
export async function startOnWorker(query: string, options: WorkerCallOptions = {}): Promise<string> {
  const response = await fetchWorker("/v1/runs", { method: "POST", body: { query, durable: false } }, options);
  const { id } = (await response.json()) as { id: string };
  return new URL(`/v1/runs/${encodeURIComponent(id)}/events`, options.baseUrl ?? location.href).href;
}
