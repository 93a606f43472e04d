/**
 * The CORS allow-list.
 *
 * @module
 */

/** What {@link resolveCors} decided for a request. */
export interface CorsDecision {
  /** Whether the request may proceed: no `Origin`, the Worker's own origin, or an allowed one. */
  allowed: boolean;
  /** Headers to add to the response (empty for same-origin and origin-less requests). */
  headers: Record<string, string>;
}

/**
 * Decides whether a request's `Origin` may call the API. Requests without
 * an `Origin` (curl, servers) and same-origin requests (the demo page) pass
 * without CORS headers; other origins pass only when listed in
 * `allowList` (comma-separated origins, or `*`) and then get
 * `Access-Control-Allow-Origin` for exactly that origin, `Vary: Origin`
 * and the exposed `x-plankit-*` headers.
 *
 * @param request - the request.
 * @param allowList - the `PLANKIT_CORS_ORIGINS` setting.
 * @returns the decision and the headers to add.
 *
 * @example
 * ```ts
 * const cors = resolveCors(request, env.PLANKIT_CORS_ORIGINS);
 * if (!cors.allowed) return problemResponse(403, "Origin not allowed", { code: "origin-not-allowed" });
 * ```
 */
export function resolveCors(request: Request, allowList: string | undefined): CorsDecision {
  const origin = request.headers.get("origin");
  if (origin === null || origin === new URL(request.url).origin) return { allowed: true, headers: {} };
  const allowed = (allowList ?? "")
    .split(",")
    .map((entry) => entry.trim().replace(/\/+$/u, ""))
    .filter((entry) => entry !== "");
  if (!allowed.includes("*") && !allowed.includes(origin)) return { allowed: false, headers: { vary: "Origin" } };
  return {
    allowed: true,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": "x-plankit-model, x-plankit-run-id",
      vary: "Origin",
    },
  };
}
