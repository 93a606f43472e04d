/**
 * What a fork (or a test) swaps out of the Worker.
 *
 * @module
 */
import type { AgentRuntimeOptions, ToolRegistry } from "../src/index.ts";
import type { SelectedModel } from "./select-model.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** Options of `createWorker`: what tests (or a fork) swap out. */
export interface WorkerOptions {
  /**
   * The tools of one request.
   *
   * @defaultValue the demo tools, with a fresh note store per request
   */
  createTools?: (env: WorkerEnv) => ToolRegistry;
  /**
   * The model of one request.
   *
   * @defaultValue `selectModel`
   */
  selectModel?: (env: WorkerEnv) => SelectedModel;
  /** Runtime settings for the runs answered in the request, over `workerDefaults.runtime`. */
  runtime?: Partial<Omit<AgentRuntimeOptions, "planner" | "registry" | "model" | "profile">>;
}
