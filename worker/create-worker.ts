/**
 * The Worker's request handling.
 *
 * @module
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { HttpProblem } from "./http/http-problem.ts";
import { renderProblem } from "./http/render-problem.ts";
import { bearerTokenMiddleware } from "./middleware/bearer-token-middleware.ts";
import { bodyLimitMiddleware } from "./middleware/body-limit-middleware.ts";
import { corsMiddleware } from "./middleware/cors-middleware.ts";
import { redactMiddleware } from "./middleware/redact-middleware.ts";
import { requestContextMiddleware } from "./middleware/request-context-middleware.ts";
import { chatCompletionsRoute } from "./routes/chat-completions-route.ts";
import { chatRoute } from "./routes/chat-route.ts";
import { guideRoute } from "./routes/guide-route.ts";
import { healthRoute } from "./routes/health-route.ts";
import { modelRoute } from "./routes/model-route.ts";
import { modelsRoute } from "./routes/models-route.ts";
import { planRoute } from "./routes/plan-route.ts";
import { runApprovalsRoute } from "./routes/run-approvals-route.ts";
import { runCancelRoute } from "./routes/run-cancel-route.ts";
import { runEventsRoute } from "./routes/run-events-route.ts";
import { runRoute } from "./routes/run-route.ts";
import { runStatusRoute } from "./routes/run-status-route.ts";
import { runsRoute } from "./routes/runs-route.ts";
import { toolsRoute } from "./routes/tools-route.ts";
import type { WorkerRoute } from "./routes/worker-route.ts";
import type { WorkerAppEnv } from "./worker-app-env.ts";
import type { WorkerEnv } from "./worker-env.ts";
import type { WorkerOptions } from "./worker-options.ts";

export type { WorkerOptions } from "./worker-options.ts";

/** The routes under `/v1/`, each in its own file under `routes/`. */
const apiRoutes: readonly WorkerRoute[] = [
  planRoute,
  runRoute,
  guideRoute,
  chatRoute,
  chatCompletionsRoute,
  modelsRoute,
  modelRoute,
  toolsRoute,
  runsRoute,
  runStatusRoute,
  runCancelRoute,
  runApprovalsRoute,
  runEventsRoute,
];

/** The order methods are listed in `Allow` and `Access-Control-Allow-Methods`. */
const methodOrder = ["GET", "HEAD", "POST"];

/**
 * Builds the function that lists the methods a path accepts (a `GET` route
 * accepts `HEAD` too), from the routes.
 *
 * @param routes - the routes.
 * @returns the lookup; empty for a path no route has.
 */
function createMethodTable(routes: readonly WorkerRoute[]): (path: string) => string[] {
  const router = new TrieRouter<string>();
  for (const route of routes) router.add("ALL", route.path, route.method);
  return (path) => {
    const methods = new Set(router.match("ALL", path)[0].map(([method]) => method));
    if (methods.has("GET")) methods.add("HEAD");
    return methodOrder.filter((method) => methods.has(method));
  };
}

/**
 * Turns anything thrown while handling a request into the response: an
 * {@link HttpProblem} as itself, a Hono `HTTPException` (its response) as
 * it is, anything else as 500 `internal-error` — whose detail says nothing
 * of the error, which may carry configuration.
 *
 * @param error - what was thrown.
 * @param path - the request's path (it picks the error shape).
 * @returns the response.
 */
function toErrorResponse(error: unknown, path: string): Response {
  if (error instanceof HttpProblem) return renderProblem(error, path);
  if (error instanceof HTTPException) return error.getResponse();
  return renderProblem(new HttpProblem(500, "The request failed inside the Worker", { code: "internal-error" }), path);
}

/**
 * Creates the Worker's fetch handler, a Hono app:
 *
 * - `GET /health` → `{ ok: true }`;
 * - `GET /v1/tools` → the tools (MCP descriptors) and the model;
 * - `POST /v1/plan` → SSE of planner events (see `planRoute`);
 * - `POST /v1/run` → SSE of runtime events, `model` first and `run-end`
 *   last (see `runRoute`);
 * - `POST /v1/chat/completions`, `GET /v1/models`, `GET /v1/models/:id` →
 *   the OpenAI Chat Completions API over runs (model `plankit`), with
 *   OpenAI's error shape (see `chatCompletionsRoute`);
 * - `POST /v1/chat` → the AI SDK UI message stream of a run, for `useChat`;
 * - `POST /v1/runs`, `GET /v1/runs/:id`, `POST /v1/runs/:id/cancel`,
 *   `GET /v1/runs/:id/events` → durable and session runs;
 * - `POST /v1/runs/:id/approvals` → decisions on a session run's steps
 *   that wait for approval (see `runApprovalsRoute`);
 * - `POST /v1/guide` → SSE of one turn of the guided demo conversation;
 * - other `GET`s → the static assets (the web demo), when bound;
 * - anything else → 404, or 405 with `Allow` for a known path.
 *
 * `/v1/*` requests pass, in order: the redaction of secrets from the
 * response and the `retry:` hint of event streams (see
 * `redactMiddleware`), the CORS policy (see `corsMiddleware`; 403 for
 * unlisted origins, preflights answered), the bearer token when
 * `PLANKIT_TOKEN` is set (401), the model and tools of the request, the
 * body limit (413), then the route, which checks the body (415, 400). Every API response names the model in `x-plankit-model`;
 * every event stream starts with a `retry:` hint. Errors are RFC 9457
 * problem details, except on the OpenAI routes. A client that goes away
 * aborts its plan or run and every tool and model call in it, streamed or
 * not.
 *
 * @param options - tools, model selection and runtime settings to swap out.
 * @returns the handler.
 *
 * @example
 * ```ts
 * export default createWorker();
 * ```
 */
export function createWorker(options: WorkerOptions = {}): { fetch(request: Request, env: WorkerEnv, context?: unknown): Promise<Response> } {
  const app = new Hono<WorkerAppEnv>();
  const methodsOf = createMethodTable([healthRoute, ...apiRoutes]);
  app.onError((error, c) => toErrorResponse(error, c.req.path));
  app.use("/v1/*", redactMiddleware(), corsMiddleware(methodsOf), bearerTokenMiddleware(), requestContextMiddleware(options));
  for (const route of [healthRoute, ...apiRoutes]) {
    if (route.body === undefined) app.on(route.method, route.path, route.handle);
    else app.on(route.method, route.path, bodyLimitMiddleware(route.body), route.handle);
  }
  app.all("*", async (c) => {
    const path = c.req.path;
    const methods = methodsOf(path);
    if (methods.length > 0) {
      const allow = [...methods, ...(path.startsWith("/v1/") ? ["OPTIONS"] : [])].join(", ");
      throw new HttpProblem(405, `${path} does not accept ${c.req.method}; use ${methods.join(" or ")}`, { code: "method-not-allowed", headers: { allow } });
    }
    const assets = c.env?.ASSETS;
    if (assets !== undefined && (c.req.method === "GET" || c.req.method === "HEAD") && !path.startsWith("/v1/")) {
      const asset = await assets.fetch(c.req.raw);
      if (asset.status !== 404) return asset;
    }
    throw new HttpProblem(404, `No route for ${c.req.method} ${path}`, { code: "not-found" });
  });
  return {
    async fetch(request, env, context) {
      try {
        return await app.fetch(request, env, context as ExecutionContext | undefined);
      } catch (error) {
        return toErrorResponse(error, new URL(request.url).pathname);
      }
    },
  };
}
