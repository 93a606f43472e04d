/**
 * The bearer token of `/v1/*`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import { HttpProblem } from "../http/http-problem.ts";
import { renderProblem } from "../http/render-problem.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";

const missing = 'Bearer realm="plankit"';
const invalid = 'Bearer realm="plankit", error="invalid_token"';

/**
 * Requires `Authorization: Bearer <PLANKIT_TOKEN>` when `PLANKIT_TOKEN` is
 * set, comparing hashes in constant time (Hono's `timingSafeEqual`): 401
 * `missing-token` without a bearer token (any other scheme counts as
 * none), 401 `invalid-token` for a wrong one, each with its
 * `WWW-Authenticate`; the refusal never repeats what was sent. The token
 * may hold any characters a header can carry (a pass phrase with spaces
 * or `!` too, not only RFC 6750's base64 alphabet), as the secret was set.
 * Does nothing without the setting.
 *
 * @returns the middleware.
 *
 * @example
 * ```ts
 * app.use("/v1/*", bearerTokenMiddleware());
 * ```
 */
export function bearerTokenMiddleware(): MiddlewareHandler<WorkerAppEnv> {
  return async (c, next) => {
    const token = c.env?.PLANKIT_TOKEN ?? "";
    if (token === "") return next();
    const sent = /^Bearer +(\S(?:.*\S)?) *$/iu.exec(c.req.header("authorization") ?? "")?.[1];
    const refusal =
      sent === undefined
        ? new HttpProblem(401, "This API needs an Authorization: Bearer <token> header", {
            code: "missing-token",
            headers: { "www-authenticate": missing },
          })
        : (await timingSafeEqual(token, sent))
          ? undefined
          : new HttpProblem(401, "The bearer token is not valid", {
              code: "invalid-token",
              headers: { "www-authenticate": invalid },
            });
    return refusal === undefined ? next() : renderProblem(refusal, c.var.errorStyle);
  };
}
