/**
 * Secrets kept out of every response.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { formatSse } from "../../src/events.ts";
import { redactBody } from "../http/redact-body.ts";
import { createRedactor } from "../http/redact-secrets.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";
import { workerDefaults } from "../worker-defaults.ts";

/**
 * Starts every event stream of `/v1/*` with a `retry:` hint (how long an
 * `EventSource` waits before it reconnects) and keeps writing to it while
 * it is quiet (an SSE comment every `streamHeartbeatMs`, so that a client
 * that left is noticed by the failed write even where the request's
 * signal does not fire), and passes every response body of `/v1/*` — JSON, problems, event streams,
 * whole or streamed, the status routes' included — through the redactor of
 * the Worker's secrets (`OPENAI_API_KEY`, `PLANKIT_TOKEN`): each secret is
 * replaced with `[redacted]` wherever it appears, in any case, whatever its length,
 * even split across chunks (see `redactBody`). Without secrets the
 * response passes untouched but for `x-content-type-options: nosniff`,
 * which every response of `/v1/*` carries.
 *
 * @returns the middleware.
 *
 * @example
 * ```ts
 * app.use("/v1/*", redactMiddleware());
 * ```
 */
export function redactMiddleware(): MiddlewareHandler<WorkerAppEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set("x-content-type-options", "nosniff");
    const redactor = createRedactor([c.env?.OPENAI_API_KEY, c.env?.PLANKIT_TOKEN]);
    const response = c.res;
    const eventStream =
      response.status === 200 && (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
    if ((!redactor.active && !eventStream) || response.body === null) return;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    const options = eventStream
      ? { prefix: formatSse({ retry: workerDefaults.retryMs }), heartbeatMs: workerDefaults.streamHeartbeatMs }
      : {};
    const redacted = new Response(redactBody(response.body, redactor, options), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    c.res = undefined;
    c.res = redacted;
  };
}
