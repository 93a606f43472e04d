/**
 * `GET /v1/models`.
 *
 * @module
 */
import { workerDefaults } from "../worker-defaults.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * The one model Chat Completions clients see, as OpenAI describes a model.
 *
 * @returns `{ id: "plankit", object: "model", created: 0, owned_by: "plankit" }`.
 */
export function describeChatModel(): { id: string; object: "model"; created: number; owned_by: string } {
  return { id: workerDefaults.chatModelId, object: "model", created: 0, owned_by: "plankit" };
}

/**
 * `GET /v1/models`: what Chat Completions clients list before they call,
 * `{ object: "list", data: [model] }` — one model, `plankit`, whatever
 * model plans underneath.
 */
export const modelsRoute: WorkerRoute = {
  method: "GET",
  path: "/v1/models",
  errors: "openai",
  handle: (c) => c.json({ object: "list", data: [describeChatModel()] }, 200, { "cache-control": "no-store" }),
};
