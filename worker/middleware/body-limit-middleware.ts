/**
 * The size limit of request bodies.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpProblem } from "../http/http-problem.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";
import { workerDefaults } from "../worker-defaults.ts";

/**
 * Refuses a body larger than the route's limit with 413 `body-too-large`
 * (Hono's `bodyLimit`): by its `Content-Length` before reading it, else by
 * counting the bytes as they arrive and stopping at the limit. The limit is
 * `PLANKIT_MAX_BODY_BYTES` when set (a positive number), else
 * `workerDefaults.bodyLimitBytes`, or for chats (whose bodies carry the
 * history) `workerDefaults.chatBodyLimitBytes`.
 *
 * @param kind - the route's `body`: `chat` for a body that carries a conversation, `api` for any other.
 * @returns the middleware.
 *
 * @example
 * ```ts
 * app.post("/v1/chat", bodyLimitMiddleware("chat"), handler);
 * ```
 */
export function bodyLimitMiddleware(kind: "api" | "chat"): MiddlewareHandler<WorkerAppEnv> {
  return async (c, next) => {
    const setting = Number(c.env?.PLANKIT_MAX_BODY_BYTES ?? Number.NaN);
    const limit =
      setting > 0 ? setting : kind === "chat" ? workerDefaults.chatBodyLimitBytes : workerDefaults.bodyLimitBytes;
    return bodyLimit({
      maxSize: limit,
      onError: (context) => {
        const declared = context.req.header("content-length");
        const size = declared !== undefined && Number(declared) > limit ? declared : `more than ${limit}`;
        throw new HttpProblem(413, `The body is ${size} bytes; the limit is ${limit}`, {
          code: "body-too-large",
          extras: { limit },
        });
      },
    })(c, next);
  };
}
