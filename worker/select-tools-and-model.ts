/**
 * The tools and model of one request or run.
 *
 * @module
 */
import { ToolRegistry } from "../src/index.ts";
import { type SelectedModel, selectModel } from "./select-model.ts";
import type { WorkerEnv } from "./worker-env.ts";
import type { WorkerOptions } from "./worker-options.ts";

/**
 * Builds the tools and picks the model of one request or run from the
 * application's options: its `createTools` (else no tools) and its
 * `selectModel` (else {@link selectModel} with its `offlineModel`). The
 * routes and the session and durable runs ask this one function, so they
 * plan with the same tools and model.
 *
 * @param options - the Worker's options.
 * @param env - the Worker's environment.
 * @returns the tools and the model.
 * @throws {HttpProblem} 503 `model-not-configured` (see {@link selectModel}).
 *
 * @example
 * ```ts
 * const { registry, selected } = selectToolsAndModel({ createTools: () => createMyTools() }, env);
 * ```
 */
export function selectToolsAndModel(
  options: WorkerOptions,
  env: WorkerEnv,
): { registry: ToolRegistry; selected: SelectedModel } {
  const selected =
    options.selectModel === undefined ? selectModel(env, options.offlineModel) : options.selectModel(env);
  return { registry: options.createTools?.(env) ?? new ToolRegistry(), selected };
}
