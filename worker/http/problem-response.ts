/**
 * RFC 9457 problem details responses.
 *
 * @module
 */
import type { HttpProblem } from "./http-problem.ts";

/** The HTTP status phrases the Worker uses, for the problem `title`. */
const titles: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/**
 * Renders a problem as an RFC 9457 `application/problem+json` response:
 * `type` is `about:blank`, so `title` is the status phrase; `detail` says
 * what was wrong with this request; `code`, `errors` and the problem's
 * extra members are extension members.
 *
 * @param problem - the problem.
 * @returns the response, with the problem's headers.
 *
 * @example
 * ```ts
 * problemResponse(new HttpProblem(413, "The body is 20000 bytes; the limit is 16384", { code: "body-too-large" }));
 * ```
 */
export function problemResponse(problem: HttpProblem): Response {
  const { code, errors, extras } = problem.init;
  const body = {
    type: "about:blank",
    title: titles[problem.status] ?? "Error",
    status: problem.status,
    detail: problem.detail,
    code,
    ...(errors === undefined ? {} : { errors }),
    ...extras,
  };
  const headers = new Headers(problem.init.headers);
  headers.set("content-type", "application/problem+json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}
