/**
 * Calling the Worker's API from the page.
 *
 * @module
 */

/** Options of the Worker calls: token, abort signal and base URL. */
export interface WorkerCallOptions {
  /** A bearer token, when the Worker sets `PLANKIT_TOKEN`. */
  token?: string;
  /** Stops the call: the request is cancelled, and the Worker aborts its work. */
  signal?: AbortSignal;
  /** The API's base URL; the page's origin by default. */
  baseUrl?: string;
}

/**
 * Sends a request to the Worker: JSON when `body` is given, the bearer
 * token when set. Answers only a successful response.
 *
 * @param path - the route, e.g. `/v1/runs`.
 * @param init - the method, `body` (sent as JSON) and `accept` header.
 * @param options - token, abort signal and base URL.
 * @returns the response (2xx).
 * @throws Error naming the URL and what to check when the Worker cannot be reached; Error with the problem details' `detail` (`The Worker refused the request (400: …)`) when it answers with an error.
 *
 * @example
 * ```ts
 * const response = await fetchWorker("/v1/runs", { method: "POST", body: { query, durable: false } });
 * ```
 */
export async function fetchWorker(
  path: string,
  init: { method: "GET" | "POST"; body?: unknown; accept?: string },
  options: WorkerCallOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: init.accept ?? "application/json" };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (options.token !== undefined && options.token !== "") headers["authorization"] = `Bearer ${options.token}`;
  const request: RequestInit = { method: init.method, headers };
  if (init.body !== undefined) request.body = JSON.stringify(init.body);
  if (options.signal !== undefined) request.signal = options.signal;
  const url = new URL(path, options.baseUrl ?? location.href);
  let response: Response;
  try {
    response = await fetch(url, request);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    // Browsers say only "Failed to fetch": name the address and what to check.
    throw new Error(
      `Could not reach the Worker at ${url.href} (${error instanceof Error ? error.message : String(error)}). Check that it is running (npm start serves it on http://localhost:8787) and that this page was opened from it, or run the request in this browser instead.`,
      { cause: error },
    );
  }
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = (await response.json()) as { detail?: string };
      if (typeof problem.detail === "string") detail = `${response.status}: ${problem.detail}`;
    } catch {
      // Not problem details: keep the status line.
    }
    throw new Error(`The Worker refused the request (${detail})`);
  }
  return response;
}
