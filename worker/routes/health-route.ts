/**
 * `GET /health`.
 *
 * @module
 */
import type { WorkerRoute } from "./worker-route.ts";

/** `GET /health`: `{ ok: true }`, without CORS or a token. */
export const healthRoute: WorkerRoute = {
  method: "GET",
  path: "/health",
  errors: "problem-details",
  handle: (c) => c.json({ ok: true }, 200, { "cache-control": "no-store" }),
};
