/**
 * The planner of one API request.
 *
 * @module
 */
import { LLMPlanner, type ToolRegistry } from "../src/index.ts";
import type { PlanModel } from "../src/model.ts";
import type { Planner } from "../src/runtime.ts";
import type { ToolDescriptor } from "../src/tools.ts";
import { restrictPlanner } from "./restrict-planner.ts";
import type { WorkerOptions } from "./worker-options.ts";

/**
 * Builds the planner a request asks for: an `LLMPlanner` over the model
 * that shows it every tool of the registry, or only the `tools` the request
 * names (the runtime still executes through the whole registry), with the
 * request's `maxSteps`. `query_kb` steps call the application's
 * `knowledgeBaseTool`.
 *
 * @param model - the model.
 * @param registry - the Worker's tools.
 * @param request - the request's `tools` and `maxSteps`, when given.
 * @param options - the Worker's options (its `knowledgeBaseTool`).
 * @returns the planner, and the tools it plans with.
 *
 * @example
 * ```ts
 * const { planner, tools } = createRequestPlanner(selected.model, registry, { tools: ["calculator"], maxSteps: 4 }, { knowledgeBaseTool: "kb_search" });
 * ```
 */
export function createRequestPlanner(
  model: PlanModel,
  registry: ToolRegistry,
  request: { tools?: readonly string[] | undefined; maxSteps?: number | undefined },
  options: Pick<WorkerOptions, "knowledgeBaseTool">,
): { planner: Planner; tools: ToolDescriptor[] } {
  const wanted = request.tools === undefined ? undefined : new Set(request.tools);
  const tools = wanted === undefined ? registry.list() : registry.list().filter((tool) => wanted.has(tool.name));
  const planner = new LLMPlanner({
    model,
    ...(options.knowledgeBaseTool === undefined ? {} : { knowledgeBaseTool: options.knowledgeBaseTool }),
    ...(request.maxSteps === undefined ? {} : { maxSteps: request.maxSteps }),
  });
  return { planner: wanted === undefined ? planner : restrictPlanner(planner, tools), tools };
}
