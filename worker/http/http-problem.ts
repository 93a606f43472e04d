/**
 * An error that answers a request.
 *
 * @module
 */

/** What {@link HttpProblem} carries besides the status and the detail. */
export interface HttpProblemInit {
  /** A stable machine-readable code, kebab-case, e.g. `"invalid-body"`. */
  code: string;
  /** Per-field problems: a JSON pointer into the body and what is wrong. */
  errors?: { pointer: string; detail: string }[];
  /** The request parameter at fault, as OpenAI names it (`tools`, `messages[0].content`); derived from `errors` when absent. */
  param?: string | null;
  /** More response headers (`Allow`, `WWW-Authenticate`, `Retry-After`, …). */
  headers?: Record<string, string>;
  /** More members of the problem details body (e.g. `limit`). */
  extras?: Record<string, unknown>;
}

/**
 * A refusal or failure that becomes the response: thrown anywhere while a
 * request is handled, it is rendered once, by the Worker's error handler,
 * as RFC 9457 problem details or, on the OpenAI routes, as OpenAI's
 * `{ error: { message, type, param, code } }`.
 *
 * @example
 * ```ts
 * throw new HttpProblem(400, "tools: this endpoint plans with its own tools", { code: "unsupported-parameter", param: "tools" });
 * ```
 */
export class HttpProblem extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** What went wrong, for people. */
  readonly detail: string;
  /** The code, errors, param, headers and extra members. */
  readonly init: HttpProblemInit;

  /**
   * @param status - the HTTP status.
   * @param detail - what went wrong with this request.
   * @param init - the code and the rest.
   */
  constructor(status: number, detail: string, init: HttpProblemInit) {
    super(detail);
    this.name = "HttpProblem";
    this.status = status;
    this.detail = detail;
    this.init = init;
  }
}
