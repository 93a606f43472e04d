/**
 * The bearer token of `/v1/*`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { HttpProblem } from "../http/http-problem.ts";
import { renderProblem } from "../http/render-problem.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";

const missing = 'Bearer realm="plankit"';
const invalid = 'Bearer realm="plankit", error="invalid_token"';

/**
 * Requires `Authorization: Bearer <PLANKIT_TOKEN>` when `PLANKIT_TOKEN` is
 * set (Hono's `bearerAuth`, comparing hashes in constant time): 401
 * `missing-token` without a bearer token (any other scheme counts as
 * none), 401 `invalid-token` for a wrong one, each with its
 * `WWW-Authenticate`; the refusal never repeats what was sent. Does
 * nothing without the setting.
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
    const refuse = (code: "missing-token" | "invalid-token", header: string) => () => {
      const detail =
        code === "missing-token"
          ? "This API needs an Authorization: Bearer <token> header"
          : "The bearer token is not valid";
      return renderProblem(
        new HttpProblem(401, detail, { code, headers: { "www-authenticate": header } }),
        c.var.errorStyle,
      );
    };
    return bearerAuth({
      token,
      realm: "plankit",
      noAuthenticationHeader: { wwwAuthenticateHeader: missing, message: refuse("missing-token", missing) },
      invalidAuthenticationHeader: { wwwAuthenticateHeader: missing, message: refuse("missing-token", missing) },
      invalidToken: { wwwAuthenticateHeader: invalid, message: refuse("invalid-token", invalid) },
    })(c as never, next);
  };
}
