/**
 * `createRunStore` on a run's event-stream URL over real HTTP on
 * 127.0.0.1 with Node's own `fetch`: the connection is destroyed
 * mid-message twice, the store resumes with `Last-Event-ID`, and the 204
 * past the end of the log ends it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replay } from "../../src/events.ts";
import type { RuntimeEvent } from "../../src/index.ts";
import { createRunStore } from "../../src/ui.ts";
import { type RunEventsRoutes, serveRunEvents } from "./run-events-server.ts";
import { plans, recordRun } from "./run-page/demo-runtime.ts";

let server: Server;
let origin: string;
let log: RuntimeEvent[];
const routes: RunEventsRoutes = { runs: {}, drops: [], token: "t0k", requests: [] };

beforeAll(async () => {
  log = (await recordRun(plans.twelve)).filter((event) => event.type !== "run-end");
  routes.runs["r1"] = log;
  server = createServer((request, response) => {
    if (!serveRunEvents(routes, request, response)) response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("createRunStore over HTTP", () => {
  it("resumes after connections destroyed mid-message: every event once, in order, until the 204", async () => {
    routes.requests.length = 0;
    routes.drops.push(5, 11);
    const statuses: string[] = [];
    const store = createRunStore(`${origin}/v1/runs/r1/events`, { token: "t0k", retryMs: 10 });
    store.subscribe(() => {
      const status = store.getConnection().status;
      if (statuses.at(-1) !== status) statuses.push(status);
    });
    const state = await store.done;
    expect(store.getConnection()).toEqual({ status: "done" });
    expect(store.events).toEqual(log);
    expect(state).toEqual(replay(log));
    expect(routes.requests.map((request) => request.lastEventId)).toEqual([
      undefined,
      "4",
      "15",
      String(log.length - 1),
    ]);
    expect(routes.requests.every((request) => request.authorization === "Bearer t0k")).toBe(true);
    expect(statuses).toContain("reconnecting");
    await store.approve({ stepId: "s2", approved: false, reason: "no" });
    await store.stop();
    expect(routes.requests.slice(-2).map((request) => [request.method, request.path, request.body])).toEqual([
      ["POST", "/v1/runs/r1/approvals", { decisions: [{ stepId: "s2", approved: false, reason: "no" }] }],
      ["POST", "/v1/runs/r1/cancel", {}],
    ]);
  });

  it("fails without the token, naming the request and the server's problem", async () => {
    const store = createRunStore(`${origin}/v1/runs/r1/events`);
    await store.done;
    expect(store.getConnection().status).toBe("failed");
    expect(store.getConnection().error?.message).toBe(
      `GET ${origin}/v1/runs/r1/events answered 401 missing-token: Send the bearer token`,
    );
  });
});
