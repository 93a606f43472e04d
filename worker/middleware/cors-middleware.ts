/**
 * Cross-origin requests to `/v1/*`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { HttpProblem } from "../http/http-problem.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";
import { workerDefaults } from "../worker-defaults.ts";

/**
 * Parses `PLANKIT_CORS_ORIGINS`: comma-separated origins (a trailing slash
 * is ignored), or `*`.
 *
 * @param allowList - the setting.
 * @returns the origins.
 */
function parseAllowList(allowList: string | undefined): string[] {
  return (allowList ?? "")
    .split(",")
    .map((entry) => entry.trim().replace(/\/+$/u, ""))
    .filter((entry) => entry !== "");
}

/**
 * The CORS policy of `/v1/*`, on Hono's `cors`:
 *
 * - requests without `Origin` (curl, servers) and same-origin requests
 *   (the demo page) pass without CORS headers;
 * - other origins must be listed in `PLANKIT_CORS_ORIGINS` (or it is `*`),
 *   else they get 403 `origin-not-allowed`, preflights included;
 * - a listed origin gets `Access-Control-Allow-Origin` for exactly that
 *   origin, `Vary: Origin`, the `x-plankit-*` headers (and `Location`)
 *   exposed; its preflights (`OPTIONS`, answered 204 here) allow the
 *   route's methods and every header the preflight asks for — the official
 *   SDKs send their own (`x-stainless-*`, `openai-beta`, …), and the
 *   bearer token is what guards the API, not the header list — cached for
 *   10 minutes. No credentials (cookies) are allowed.
 *
 * `EventSource` needs nothing more: its `GET` carries `Origin`, and a
 * `Last-Event-ID` on reconnect is allowed like any other asked-for header.
 *
 * @param methodsOf - the methods a path accepts (for `Access-Control-Allow-Methods`).
 * @returns the middleware.
 *
 * @example
 * ```ts
 * app.use("/v1/*", corsMiddleware((path) => ["POST"]));
 * ```
 */
export function corsMiddleware(methodsOf: (path: string) => readonly string[]): MiddlewareHandler<WorkerAppEnv> {
  const policy = cors({
    origin: (origin, c) => {
      if (origin === "" || origin === new URL(c.req.url).origin) return null;
      return origin;
    },
    allowMethods: (_origin, c) => [...methodsOf(c.req.path), "OPTIONS"],
    exposeHeaders: [...workerDefaults.cors.exposeHeaders],
    maxAge: workerDefaults.cors.maxAgeSeconds,
  });
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== new URL(c.req.url).origin) {
      const allowed = parseAllowList(c.env?.PLANKIT_CORS_ORIGINS);
      if (!allowed.includes("*") && !allowed.includes(origin)) {
        throw new HttpProblem(403, `Origin ${origin} may not call this API; add it to PLANKIT_CORS_ORIGINS`, {
          code: "origin-not-allowed",
          headers: { vary: "Origin" },
        });
      }
      return policy(c, next);
    }
    if (c.req.method === "OPTIONS") {
      const allow = [...methodsOf(c.req.path), "OPTIONS"].join(", ");
      return c.body(null, 204, { allow });
    }
    return next();
  };
}
