/**
 * One route of the Worker.
 *
 * @module
 */
import type { Handler } from "hono";
import type { ErrorStyle } from "../http/render-problem.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";

/** A route: its method and path (Hono syntax), its error style, the body it reads, and its handler. */
export interface WorkerRoute {
  method: "GET" | "POST";
  /** The path, e.g. `/v1/runs/:id` (a `GET` route answers `HEAD` too). */
  path: string;
  /** How every error of a request to this path is rendered, from the CORS, token and body checks to a 405. */
  errors: ErrorStyle;
  /** The body limit it reads its body under (`chat`: the larger one), if it reads one. */
  body?: "api" | "chat";
  handle: Handler<WorkerAppEnv>;
}
