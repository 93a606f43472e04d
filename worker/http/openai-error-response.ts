/**
 * Errors as OpenAI's API answers them.
 *
 * @module
 */
import type { HttpProblem } from "./http-problem.ts";

/**
 * The OpenAI `param` of a JSON pointer: `#/messages/0/content` →
 * `messages[0].content`; `null` for the whole body.
 *
 * @param pointer - a JSON pointer from the body checks.
 * @returns the parameter path.
 */
function toParam(pointer: string): string | null {
  const segments = pointer
    .replace(/^#\/?/u, "")
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (segments.length === 0) return null;
  return segments
    .map((segment, index) => (/^\d+$/u.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join("");
}

/**
 * The OpenAI error `type` of a status: `server_error` for 5xx,
 * `invalid_request_error` otherwise (as OpenAI answers a bad body, an
 * unknown model or a wrong key alike).
 *
 * @param status - the HTTP status.
 * @returns the type.
 */
function toType(status: number): string {
  return status >= 500 ? "server_error" : "invalid_request_error";
}

/**
 * Renders a problem as OpenAI's error body, `{ error: { message, type,
 * param, code } }`, with the problem's status and headers: what the
 * official clients read into `error.status`, `error.type`, `error.param`,
 * `error.code` and `error.message`. The code is the problem's, in OpenAI's
 * snake_case (`invalid-body` → `invalid_body`); the param is the
 * problem's, or the first field its errors name.
 *
 * @param problem - the problem.
 * @returns the response.
 *
 * @example
 * ```ts
 * openAIErrorResponse(new HttpProblem(404, "The model 'gpt-5' does not exist", { code: "model-not-found" }));
 * // 404 {"error":{"message":"The model 'gpt-5' does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}
 * ```
 */
export function openAIErrorResponse(problem: HttpProblem): Response {
  const pointer = problem.init.errors?.[0]?.pointer;
  const param = problem.init.param !== undefined ? problem.init.param : pointer === undefined ? null : toParam(pointer);
  const body = {
    error: {
      message: problem.detail,
      type: toType(problem.status),
      param,
      code: problem.init.code.replaceAll("-", "_"),
    },
  };
  const headers = new Headers(problem.init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}
