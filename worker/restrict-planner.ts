/**
 * A planner limited to some tools.
 *
 * @module
 */
import type { Planner, PlannerEvent, ReplanRequest } from "../src/runtime.ts";
import type { ToolDescriptor } from "../src/tools.ts";

/** A planner that may also stream its re-plans (as `LLMPlanner` does). */
type StreamingPlanner = Planner & { streamReplan?: (request: ReplanRequest) => AsyncIterable<PlannerEvent> };

/**
 * Wraps a planner so it plans (and re-plans) with the given tool
 * descriptors only, whatever catalog it is handed — how a request's `tools`
 * list narrows the Worker's tools while the runtime still executes through
 * the full registry. A `streamReplan` method is kept when the planner has one.
 *
 * @param planner - the planner.
 * @param tools - the tools it may use.
 * @returns the restricted planner.
 *
 * @example
 * ```ts
 * const planner = restrictPlanner(new LLMPlanner({ model }), registry.list().filter((tool) => wanted.has(tool.name)));
 * ```
 */
export function restrictPlanner(planner: Planner, tools: readonly ToolDescriptor[]): Planner {
  const catalog = [...tools];
  const inner = planner as StreamingPlanner;
  const restricted: StreamingPlanner = {
    stream: (request) => inner.stream({ ...request, tools: catalog }),
    replan: (request) => inner.replan({ ...request, tools: catalog }),
  };
  const streamReplan = inner.streamReplan;
  if (typeof streamReplan === "function")
    restricted.streamReplan = (request) => streamReplan.call(inner, { ...request, tools: catalog });
  return restricted;
}
