/**
 * Runs a request on the Worker as a session run, which can wait for a
 * person's approval.
 *
 * @module
 */
import type { ApprovalDecision } from "../src/index.ts";
import type { DemoEvent } from "./demo-event.ts";
import type { DemoRun } from "./demo-run.ts";
import { fetchWorker, type WorkerCallOptions } from "./fetch-worker.ts";
import { readServerSentEvents } from "./read-server-sent-events.ts";

/** Options of {@link runOnWorker}: token, abort signal (Stop) and base URL. */
export type RunOnWorkerOptions = WorkerCallOptions;

/** How many times in a row the page reconnects to an event stream that ended early without a new event. */
const reconnectsWithoutProgress = 3;

/**
 * Follows a run's log (`GET /v1/runs/:id/events`) until `run-end`,
 * reconnecting after the last event id when the stream ends early.
 *
 * @param runId - the run.
 * @param options - token, abort signal and base URL.
 * @param onEnd - called when `run-end` arrives.
 * @returns the events.
 */
async function* followEvents(runId: string, options: RunOnWorkerOptions, onEnd: () => void): AsyncGenerator<DemoEvent> {
  let after: string | undefined;
  let idle = 0;
  for (;;) {
    const query = after === undefined ? "" : `?after=${encodeURIComponent(after)}`;
    const response = await fetchWorker(
      `/v1/runs/${encodeURIComponent(runId)}/events${query}`,
      { method: "GET", accept: "text/event-stream" },
      options,
    );
    // 204: the log had ended at `after`.
    if (response.status === 204 || response.body === null) return;
    let progressed = false;
    for await (const message of readServerSentEvents(response.body, options.signal)) {
      after = message.id ?? after;
      progressed = true;
      const event = JSON.parse(message.data) as DemoEvent;
      yield event;
      if (event.type === "run-end") {
        onEnd();
        return;
      }
    }
    if (options.signal?.aborted === true) return;
    idle = progressed ? 0 : idle + 1;
    if (idle >= reconnectsWithoutProgress)
      throw new Error(`The Worker's event stream of run ${runId} keeps ending before the run does`);
  }
}

/**
 * Starts the request as a session run on the Worker (`POST /v1/runs`
 * with `durable: false`), follows its events (`GET /v1/runs/:id/events`)
 * and sends decisions to `POST /v1/runs/:id/approvals`. When the signal
 * fires, the page stops reading and asks the Worker to cancel the run
 * (`POST /v1/runs/:id/cancel`), so a run waiting for approval ends too.
 *
 * @param query - the request.
 * @param options - token, abort signal and base URL.
 * @returns the run.
 *
 * @example
 * ```ts
 * const run = runOnWorker("What is 21*2+5?");
 * for await (const event of run.events) console.log(event.type);
 * ```
 */
export function runOnWorker(query: string, options: RunOnWorkerOptions = {}): DemoRun {
  const { signal, ...call } = options;
  let runId: string | undefined;
  let ended = false;
  signal?.addEventListener(
    "abort",
    () => {
      if (runId !== undefined && !ended)
        fetchWorker(`/v1/runs/${encodeURIComponent(runId)}/cancel`, { method: "POST" }, call).catch(() => undefined);
    },
    { once: true },
  );
  const events = async function* (): AsyncGenerator<DemoEvent> {
    const response = await fetchWorker("/v1/runs", { method: "POST", body: { query, durable: false } }, options);
    runId = ((await response.json()) as { id: string }).id;
    if (signal?.aborted === true) {
      await fetchWorker(`/v1/runs/${encodeURIComponent(runId)}/cancel`, { method: "POST" }, call).catch(
        () => undefined,
      );
      return;
    }
    yield* followEvents(runId, options, () => {
      ended = true;
    });
  };
  return {
    events: events(),
    async approve(decisions: ApprovalDecision[]): Promise<void> {
      if (runId === undefined) throw new Error("The run has not started yet");
      await fetchWorker(
        `/v1/runs/${encodeURIComponent(runId)}/approvals`,
        { method: "POST", body: { decisions } },
        call,
      );
    },
  };
}
