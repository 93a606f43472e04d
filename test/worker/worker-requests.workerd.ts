/**
 * Requests to the Worker under test, for the workerd suites.
 *
 * @module
 */
import { SELF } from "cloudflare:test";
import OpenAI from "openai";

/** The origin the suites send their requests to. */
export const origin = "https://plankit.test";

/**
 * POSTs a JSON body to the Worker.
 *
 * @param path - the path, e.g. `/v1/runs`.
 * @param body - the body, sent as JSON.
 * @returns the response.
 */
export function post(path: string, body: unknown): Promise<Response> {
  return SELF.fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The official `openai` client, talking to the Worker without retries. */
export const client = new OpenAI({
  baseURL: `${origin}/v1`,
  apiKey: "any",
  fetch: (url, init) => SELF.fetch(String(url), init),
  maxRetries: 0,
});
