/**
 * Which error shape a route answers with.
 *
 * @module
 */
import type { HttpProblem } from "./http-problem.ts";
import { openAIErrorResponse } from "./openai-error-response.ts";
import { problemResponse } from "./problem-response.ts";

/**
 * Whether a path is one of the OpenAI-compatible routes
 * (`/v1/chat/completions`, `/v1/models`, `/v1/models/:id`), whose errors
 * OpenAI clients read.
 *
 * @param path - the URL path.
 * @returns whether it is.
 */
function isOpenAIPath(path: string): boolean {
  return path === "/v1/chat/completions" || path === "/v1/models" || path.startsWith("/v1/models/");
}

/**
 * Renders a problem for the route it happened on: OpenAI's error shape on
 * the OpenAI routes, RFC 9457 problem details everywhere else.
 *
 * @param problem - the problem.
 * @param path - the request's path.
 * @returns the response.
 *
 * @example
 * ```ts
 * app.onError((error, c) => renderProblem(toProblem(error), c.req.path));
 * ```
 */
export function renderProblem(problem: HttpProblem, path: string): Response {
  return isOpenAIPath(path) ? openAIErrorResponse(problem) : problemResponse(problem);
}
