/**
 * The request's model, tools and signal, for the routes.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { selectToolsAndModel } from "../select-tools-and-model.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";
import type { WorkerOptions } from "../worker-options.ts";

/**
 * Sets what the routes read from the context: `signal` (the signal of the
 * request as it arrived, which fires when the client goes away, kept here
 * because a middleware may replace the request), `selected` (the model)
 * and `registry` (the tools), both from `selectToolsAndModel`, and
 * `options`. After the route, names the model in `x-plankit-model` and
 * `x-plankit-model-provider` on the response, whatever it is.
 *
 * @param options - the Worker's options.
 * @returns the middleware.
 *
 * @example
 * ```ts
 * app.use("/v1/*", requestContextMiddleware(options));
 * ```
 */
export function requestContextMiddleware(options: WorkerOptions): MiddlewareHandler<WorkerAppEnv> {
  return async (c, next) => {
    c.set("signal", c.req.raw.signal);
    c.set("options", options);
    const { registry, selected } = selectToolsAndModel(options, c.env ?? {});
    c.set("selected", selected);
    c.set("registry", registry);
    await next();
    c.res.headers.set("x-plankit-model", selected.name);
    c.res.headers.set("x-plankit-model-provider", selected.provider);
  };
}
