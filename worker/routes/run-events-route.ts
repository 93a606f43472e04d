/**
 * `GET /v1/runs/:id/events`.
 *
 * @module
 */
import { sessionOfRun } from "../runs/session-of-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `GET /v1/runs/:id/events`: the run's log as Server-Sent Events from its
 * session object (see `PlanSession`), resumable with `Last-Event-ID` (or
 * `?after=<id>`), starting with a `retry:` hint and closed after
 * `run-end`. A resume at or past the last event of a run that has ended
 * answers `204 No Content`, which tells an `EventSource` to stop
 * reconnecting. 404 `unknown-run`, 400 `invalid-last-event-id`.
 */
export const runEventsRoute: WorkerRoute = {
  method: "GET",
  path: "/v1/runs/:id/events",
  errors: "problem-details",
  handle: async (c) => {
    const { runId, stub } = sessionOfRun(c);
    const forwarded = new URL("https://plan-session/events");
    forwarded.searchParams.set("run", runId);
    const after = c.req.query("after");
    if (after !== undefined) forwarded.searchParams.set("after", after);
    const lastEventId = c.req.header("last-event-id");
    const response = await stub.fetch(forwarded, {
      headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
      signal: c.var.signal,
    });
    const headers = new Headers(response.headers);
    headers.set("x-plankit-run-id", runId);
    if (response.status === 204 || response.body === null)
      return new Response(null, { status: response.status, headers });
    return new Response(response.body, { status: response.status, headers });
  },
};
