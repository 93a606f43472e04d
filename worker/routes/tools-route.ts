/**
 * `GET /v1/tools`.
 *
 * @module
 */
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `GET /v1/tools`: the tools (MCP descriptors) and the model,
 * `{ model: { name, provider }, tools }`.
 */
export const toolsRoute: WorkerRoute = {
  method: "GET",
  path: "/v1/tools",
  errors: "problem-details",
  handle: (c) => {
    const { name, provider } = c.var.selected;
    return c.json({ model: { name, provider }, tools: c.var.registry.list() }, 200, { "cache-control": "no-store" });
  },
};
