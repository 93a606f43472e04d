/**
 * The Worker's request handling.
 *
 * @module
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { matchedRoutes } from "hono/route";
import { TrieRouter } from "hono/router/trie-router";
import { HttpProblem } from "./http/http-problem.ts";
import { type ErrorStyle, renderProblem } from "./http/render-problem.ts";
import { bearerTokenMiddleware } from "./middleware/bearer-token-middleware.ts";
import { bodyLimitMiddleware } from "./middleware/body-limit-middleware.ts";
import { corsMiddleware } from "./middleware/cors-middleware.ts";
import { redactMiddleware } from "./middleware/redact-middleware.ts";
import { requestContextMiddleware } from "./middleware/request-context-middleware.ts";
import { chatCompletionsRoute } from "./routes/chat-completions-route.ts";
import { chatRoute } from "./routes/chat-route.ts";
import { createGuideRoute } from "./routes/create-guide-route.ts";
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

/**
 * The Worker's routes, each in its own file under `routes/` with its
 * method, path and error style: `/health`, and the API under `/v1/`
 * (`/v1/guide` when the options hold a guided conversation).
 *
 * @param options - the Worker's options.
 * @returns the routes.
 */
function createRoutes(options: WorkerOptions): WorkerRoute[] {
  return [
    healthRoute,
    planRoute,
    runRoute,
    ...(options.guide === undefined ? [] : [createGuideRoute(options.guide)]),
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
}

/** The order methods are listed in `Allow` and `Access-Control-Allow-Methods`. */
const methodOrder = ["GET", "HEAD", "POST", "OPTIONS"];

/**
 * Sorts methods into {@link methodOrder}; any other method goes last.
 *
 * @param methods - the methods.
 * @returns them, sorted.
 */
function orderMethods(methods: Iterable<string>): string[] {
  const rank = (method: string) => (methodOrder.includes(method) ? methodOrder.indexOf(method) : methodOrder.length);
  return [...methods].sort((a, b) => rank(a) - rank(b));
}

/**
 * Builds the function that lists the methods a path accepts (a `GET` route
 * accepts `HEAD` too) from the app's own route table, once every route is
 * registered: what a preflight allows.
 *
 * @param app - the app.
 * @returns the lookup; empty for a path no route has.
 */
function createMethodLookup(app: Hono<WorkerAppEnv>): (path: string) => string[] {
  let router: TrieRouter<string> | undefined;
  return (path) => {
    if (router === undefined) {
      router = new TrieRouter<string>();
      // Middleware is registered for every method ("ALL"); only routes name one.
      for (const route of app.routes) if (route.method !== "ALL") router.add("ALL", route.path, route.method);
    }
    const methods = new Set(router.match("ALL", path)[0].map(([method]) => method));
    if (methods.has("GET")) methods.add("HEAD");
    return orderMethods(methods);
  };
}

/**
 * Records a route's error style for everything that answers a request to
 * its path, whatever the method: its middleware, its handler, a 405.
 *
 * @param style - the route's error style.
 * @returns the middleware.
 */
function errorStyleMiddleware(style: ErrorStyle): MiddlewareHandler<WorkerAppEnv> {
  return async (c, next) => {
    c.set("errorStyle", style);
    await next();
  };
}

/**
 * Turns anything thrown while handling a request into the response: an
 * {@link HttpProblem} as itself, a Hono `HTTPException` (its response) as
 * it is, anything else as 500 `internal-error` — whose detail says nothing
 * of the error, which may carry configuration.
 *
 * @param error - what was thrown.
 * @param style - the error style of the request's route.
 * @returns the response.
 */
function toErrorResponse(error: unknown, style: ErrorStyle | undefined): Response {
  if (error instanceof HttpProblem) return renderProblem(error, style);
  if (error instanceof HTTPException) return error.getResponse();
  return renderProblem(new HttpProblem(500, "The request failed inside the Worker", { code: "internal-error" }), style);
}

/**
 * Creates the Worker's fetch handler, a Hono app over the routes of
 * `createRoutes` (see each route for what it answers), the static assets
 * (the web demo, when bound) for other `GET`s outside `/v1/`, and 404 —
 * or, for a path a route has, 405 with `Allow` (Hono's `methodNotAllowed`).
 *
 * `/v1/*` requests pass, in order: the redaction of secrets from the
 * response and the `retry:` hint of event streams (see
 * `redactMiddleware`), the CORS policy (see `corsMiddleware`; 403 for
 * unlisted origins, preflights answered), the bearer token when
 * `PLANKIT_TOKEN` is set (401), the model and tools of the request, the
 * body limit (413), then the route, which checks the body (415, 400).
 * Every API response names the model in `x-plankit-model`; every event
 * stream starts with a `retry:` hint. Errors are rendered in the error
 * style of the route whose path was asked for (OpenAI's on the OpenAI
 * routes), RFC 9457 problem details where no route has the path. A client
 * that goes away aborts its plan or run and every tool and model call in
 * it, streamed or not.
 *
 * The Worker knows no tools, model or playbook of its own: the application
 * gives them in `options` (`worker/index.ts` gives the demo's).
 *
 * @param options - the tools, models, approval policy, guided conversation and runtime settings.
 * @returns the handler.
 *
 * @example
 * ```ts
 * export default createWorker({ createTools: () => createMyTools() });
 * ```
 */
export function createWorker(options: WorkerOptions = {}): {
  fetch(request: Request, env: WorkerEnv, context?: unknown): Promise<Response>;
} {
  const app = new Hono<WorkerAppEnv>();
  const routes = createRoutes(options);
  const methodsOf = createMethodLookup(app);
  const cors = corsMiddleware(methodsOf);
  /** Whether the request passed the `/v1/*` middleware: an API request, which answers preflights, never an asset. */
  const isApiRequest = (c: Context<WorkerAppEnv>) => matchedRoutes(c).some((route) => route.handler === cors);
  app.onError((error, c) => toErrorResponse(error, c.var.errorStyle));
  // First, so that a refusal by the CORS policy or the token already comes in the route's style.
  for (const route of routes) app.use(route.path, errorStyleMiddleware(route.errors));
  app.use("/v1/*", redactMiddleware(), cors, bearerTokenMiddleware(), requestContextMiddleware(options));
  // Inside the `/v1/*` middleware, so a 405 is redacted and names the model like any other answer.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        const allowed = orderMethods(methods);
        const allow = [...allowed, ...(isApiRequest(c) ? ["OPTIONS"] : [])].join(", ");
        const detail = `${c.req.path} does not accept ${c.req.method}; use ${allowed.join(" or ")}`;
        const problem = new HttpProblem(405, detail, { code: "method-not-allowed", headers: { allow } });
        return renderProblem(problem, c.var.errorStyle);
      },
    }),
  );
  for (const route of routes) {
    if (route.body === undefined) app.on(route.method, route.path, route.handle);
    else app.on(route.method, route.path, bodyLimitMiddleware(route.body), route.handle);
  }
  app.notFound(async (c) => {
    const assets = c.env?.ASSETS;
    if (assets !== undefined && (c.req.method === "GET" || c.req.method === "HEAD") && !isApiRequest(c)) {
      const asset = await assets.fetch(c.req.raw);
      if (asset.status !== 404) return asset;
    }
    const problem = new HttpProblem(404, `No route for ${c.req.method} ${c.req.path}`, { code: "not-found" });
    return renderProblem(problem, c.var.errorStyle);
  });
  return {
    async fetch(request, env, context) {
      try {
        return await app.fetch(request, env, context as ExecutionContext | undefined);
      } catch (error) {
        return toErrorResponse(error, undefined);
      }
    },
  };
}
