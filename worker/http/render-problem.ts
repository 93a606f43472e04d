/**
 * Which error shape a route answers with.
 *
 * @module
 */
import type { HttpProblem } from "./http-problem.ts";
import { openAIErrorResponse } from "./openai-error-response.ts";
import { problemResponse } from "./problem-response.ts";

/**
 * How a route answers its errors: `openai`, OpenAI's
 * `{ error: { message, type, param, code } }` that OpenAI clients read;
 * `problem-details`, RFC 9457 problem details.
 */
export type ErrorStyle = "openai" | "problem-details";

/**
 * Renders a problem in the error style of the route it happened on.
 *
 * @param problem - the problem.
 * @param style - the route's error style.
 * @returns the response.
 *
 * @example
 * ```ts
 * app.onError((error, c) => renderProblem(error instanceof HttpProblem ? error : internalError, c.var.errorStyle));
 * ```
 */
export function renderProblem(problem: HttpProblem, style: ErrorStyle = "problem-details"): Response {
  return style === "openai" ? openAIErrorResponse(problem) : problemResponse(problem);
}
