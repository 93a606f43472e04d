/**
 * A stand-in for a Worker's run routes on 127.0.0.1, for the store and
 * element tests: `GET /v1/runs/:id/events` serves a recorded log as SSE,
 * honours `Last-Event-ID`, breaks the connection where told and answers
 * `204` past the end; `POST …/approvals` and `…/cancel` are recorded.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { encodeSse } from "../../src/events.ts";
import type { RuntimeEvent } from "../../src/index.ts";

/** One request the stand-in answered. */
interface RecordedRequest {
  method: string;
  path: string;
  lastEventId: string | undefined;
  authorization: string | undefined;
  body?: unknown;
}

/** The stand-in's options. */
export interface RunEventsRoutes {
  /** The logs, by run id. */
  runs: Record<string, RuntimeEvent[]>;
  /** For each connection in turn: after how many events it breaks (cutting the next message in half); `undefined` runs to the end of the log. */
  drops: (number | undefined)[];
  /** The token every request must carry, if any. */
  token?: string;
  requests: RecordedRequest[];
}

/**
 * Answers a request if it is one of the run routes.
 *
 * @param routes - the logs, drops and record.
 * @param request - the request.
 * @param response - the response.
 * @returns whether it was a run route.
 */
export function serveRunEvents(routes: RunEventsRoutes, request: IncomingMessage, response: ServerResponse): boolean {
  const match = /^\/v1\/runs\/([\w-]+)\/(events|approvals|cancel)$/u.exec(request.url ?? "");
  if (match === null) return false;
  const [, runId = "", route] = match;
  const lastEventId = request.headers["last-event-id"];
  const record: RecordedRequest = {
    method: request.method ?? "",
    path: request.url ?? "",
    lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
    authorization: request.headers.authorization,
  };
  routes.requests.push(record);
  if (routes.token !== undefined && request.headers.authorization !== `Bearer ${routes.token}`) {
    response
      .writeHead(401, { "content-type": "application/problem+json" })
      .end(JSON.stringify({ code: "missing-token", detail: "Send the bearer token" }));
    return true;
  }
  const log = routes.runs[runId];
  if (log === undefined) {
    response
      .writeHead(404, { "content-type": "application/problem+json" })
      .end(JSON.stringify({ code: "unknown-run", detail: `No run ${runId}` }));
    return true;
  }
  if (route !== "events") {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      record.body = JSON.parse(text || "null");
      response.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ id: runId }));
    });
    return true;
  }
  const after = record.lastEventId === undefined ? 0 : Number(record.lastEventId) + 1;
  if (after >= log.length) {
    response.writeHead(204).end();
    return true;
  }
  const drop = routes.drops.shift();
  const messages = log.slice(after).map((event, index) => encodeSse(event, after + index));
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  response.write("retry: 20\n\n");
  if (drop === undefined) {
    response.end(messages.join(""));
    return true;
  }
  const cut = messages[drop] ?? "";
  response.write(messages.slice(0, drop).join("") + cut.slice(0, Math.floor(cut.length / 2)), () => {
    // Gone mid-message, as a dropped connection is; late enough that the client has read what came before.
    setTimeout(() => response.socket?.destroy(), 250);
  });
  return true;
}
