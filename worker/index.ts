/**
 * The plankit Worker entry point. For now it answers `GET /health`; every
 * other request gets a JSON problem-details 404.
 *
 * @module
 */

function problem(status: number, title: string, detail: string): Response {
  return new Response(JSON.stringify({ type: "about:blank", title, status, detail }), {
    status,
    headers: { "content-type": "application/problem+json; charset=utf-8" },
  });
}

/**
 * The Worker's fetch handler.
 *
 * @example
 * ```ts
 * const response = await worker.fetch(new Request("https://example.com/health"));
 * await response.json(); // { ok: true }
 * ```
 */
const worker = {
  /**
   * Routes one request.
   *
   * @param request - the incoming request.
   * @returns `{ ok: true }` for `GET /health`, a problem+json 404 otherwise.
   */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health" && request.method === "GET") {
      return Response.json({ ok: true });
    }
    return problem(404, "Not Found", `No route for ${request.method} ${url.pathname}`);
  },
} satisfies ExportedHandler;

export default worker;
