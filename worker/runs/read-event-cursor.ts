/**
 * Where a client resumes a run's event stream.
 *
 * @module
 */
import { HttpProblem } from "../http/http-problem.ts";

/**
 * Reads the id of the last event a client has: `Last-Event-ID` (an
 * EventSource reconnecting), else `?after=`, else 0.
 *
 * @param request - the request.
 * @param url - its URL.
 * @returns the id.
 * @throws HttpProblem 400 `invalid-last-event-id` naming the header or the parameter it came from.
 */
export function readEventCursor(request: Request, url: URL): number {
  const header = request.headers.get("last-event-id");
  const cursor = header ?? url.searchParams.get("after") ?? "0";
  if (!/^\d{1,15}$/u.test(cursor.trim()))
    throw new HttpProblem(
      400,
      `${header === null ? "The after parameter" : "Last-Event-ID"} must be the id of an event of this run (a whole number), not ${JSON.stringify(cursor.slice(0, 40))}`,
      { code: "invalid-last-event-id" },
    );
  return Number(cursor.trim());
}
