/**
 * Where a client resumes a run's event stream.
 *
 * @module
 */
import { HttpProblem } from "../http/http-problem.ts";

/**
 * Reads the id of the last event a client has: `Last-Event-ID` (an
 * EventSource reconnecting), else `?after=`, else 0. An empty (or blank)
 * header or parameter is no cursor, as an EventSource whose last event id
 * is empty has seen none. While a run goes on,
 * an id past its log's last event is refused: no client has seen it, and
 * a stream after it would skip the events up to it, `run-end` included.
 *
 * @param request - the request.
 * @param url - its URL.
 * @param live - the run and its last event's id, while the run has not ended.
 * @returns the id.
 * @throws HttpProblem 400 `invalid-last-event-id` naming the header or the parameter it came from.
 */
export function readEventCursor(request: Request, url: URL, live?: { runId: string; last: number }): number {
  const given = (text: string | null) => (text === null || text.trim() === "" ? null : text);
  const header = given(request.headers.get("last-event-id"));
  const cursor = header ?? given(url.searchParams.get("after")) ?? "0";
  const source = header === null ? "The after parameter" : "Last-Event-ID";
  if (!/^\d{1,15}$/u.test(cursor.trim()))
    throw new HttpProblem(
      400,
      `${source} must be the id of an event of this run (a whole number), not ${JSON.stringify(cursor.slice(0, 40))}`,
      { code: "invalid-last-event-id" },
    );
  const id = Number(cursor.trim());
  if (live !== undefined && id > live.last)
    throw new HttpProblem(
      400,
      `${source} ${id} is past the end of the log: the last event of run ${live.runId} is ${live.last}`,
      { code: "invalid-last-event-id" },
    );
  return id;
}
