/**
 * What the Worker's Hono app knows about each request.
 *
 * @module
 */
import type { ToolRegistry } from "../src/index.ts";
import type { ErrorStyle } from "./http/render-problem.ts";
import type { SelectedModel } from "./select-model.ts";
import type { WorkerEnv } from "./worker-env.ts";
import type { WorkerOptions } from "./worker-options.ts";

/**
 * The Hono environment of the Worker's app: its bindings, and the
 * variables its middleware sets for the routes.
 */
export interface WorkerAppEnv {
  Bindings: WorkerEnv;
  Variables: {
    /** Fires when the client goes away: the signal of the request as it arrived. */
    signal: AbortSignal;
    /** The model of this request. */
    selected: SelectedModel;
    /** The tools of this request. */
    registry: ToolRegistry;
    /** The options the Worker was created with. */
    options: WorkerOptions;
    /** The error style of the route whose path was asked for; unset where no route has the path (problem details). */
    errorStyle?: ErrorStyle;
  };
}
