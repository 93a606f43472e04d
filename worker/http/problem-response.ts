/**
 * RFC 9457 problem details responses.
 *
 * @module
 */

/** The HTTP status phrases the Worker uses, for the problem `title`. */
const titles: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Content Too Large",
  409: "Conflict",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** Extra members of a problem: a stable `code`, per-field `errors`, anything else. */
export interface ProblemExtras {
  /** A stable machine-readable code, e.g. `"invalid-body"`. */
  code: string;
  /** Per-field problems, as in RFC 9457's example: a JSON pointer into the body and what is wrong. */
  errors?: { pointer: string; detail: string }[];
  [member: string]: unknown;
}

/**
 * Builds an RFC 9457 `application/problem+json` response: `type` is
 * `about:blank`, so `title` is the status phrase; `detail` says what was
 * wrong with this request; `code` (and `errors`) are extension members.
 *
 * @param status - the HTTP status.
 * @param detail - what went wrong, for people.
 * @param extras - the code and other members.
 * @param headers - more response headers (`Allow`, `WWW-Authenticate`, …).
 * @returns the response.
 *
 * @example
 * ```ts
 * return problemResponse(413, "The body is 20000 bytes; the limit is 16384", { code: "body-too-large" });
 * ```
 */
export function problemResponse(status: number, detail: string, extras: ProblemExtras, headers: HeadersInit = {}): Response {
  const body = { type: "about:blank", title: titles[status] ?? "Error", status, detail, ...extras };
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set("content-type", "application/problem+json; charset=utf-8");
  response.headers.set("cache-control", "no-store");
  return response;
}
