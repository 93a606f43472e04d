/**
 * Turning a failed HTTP response into words.
 *
 * @module
 */

/**
 * Describes a response that is not a success: the request, the status, and
 * the problem details' `code` and `detail` (or `title`, or the start of the
 * body) when the server sent them.
 *
 * @param method - the request's method, or `""` when it is not known.
 * @param url - the request's URL.
 * @param response - the response.
 * @returns e.g. `POST https://host/v1/runs/r1/approvals answered 409 invalid-approval: Step "s9" is not waiting`.
 *
 * @example
 * ```ts
 * if (!response.ok) throw new Error(await describeHttpFailure("GET", url, response));
 * ```
 */
export async function describeHttpFailure(method: string, url: string, response: Response): Promise<string> {
  let text = "";
  try {
    text = await response.text();
  } catch {
    // The body could not be read; the status says enough.
  }
  let detail = text.slice(0, 200);
  try {
    const problem = JSON.parse(text) as { code?: unknown; detail?: unknown; title?: unknown };
    const words =
      typeof problem.detail === "string" ? problem.detail : typeof problem.title === "string" ? problem.title : "";
    detail = [typeof problem.code === "string" ? problem.code : "", words].filter((part) => part !== "").join(": ");
  } catch {
    // Not JSON: the start of the body is shown as it is.
  }
  return `${method === "" ? "" : `${method} `}${url} answered ${response.status}${detail === "" ? "" : ` ${detail}`}`;
}
