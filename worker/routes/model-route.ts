/**
 * `GET /v1/models/:id`.
 *
 * @module
 */
import { HttpProblem } from "../http/http-problem.ts";
import { describeChatModel } from "./models-route.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `GET /v1/models/:id`: the model (`models.retrieve("plankit")`), or
 * 404 `model_not_found` in OpenAI's error shape for any other id.
 */
export const modelRoute: WorkerRoute = {
  method: "GET",
  path: "/v1/models/:id{.+}",
  errors: "openai",
  handle: (c) => {
    const model = describeChatModel();
    const id = c.req.param("id");
    if (id !== model.id)
      throw new HttpProblem(404, `The model '${id}' does not exist; this API serves one model, '${model.id}'`, {
        code: "model-not-found",
        param: null,
      });
    return c.json(model, 200, { "cache-control": "no-store" });
  },
};
