/**
 * The routes under `/v1/runs`.
 *
 * @module
 */

/** A request path under `/v1/runs`, and the methods it accepts. */
export type RunsRoute =
  | { kind: "create"; methods: readonly string[] }
  | { kind: "status" | "cancel" | "events"; id: string; methods: readonly string[] };

/**
 * Matches `/v1/runs` (`POST`: start a run), `/v1/runs/:id` (`GET`: its
 * status), `/v1/runs/:id/cancel` (`POST`) and `/v1/runs/:id/events`
 * (`GET`: the SSE log). The id is not checked here beyond its characters.
 *
 * @param path - the URL path.
 * @returns the route, or `undefined` for any other path.
 *
 * @example
 * ```ts
 * matchRunsRoute("/v1/runs/run-3f2a…/events"); // { kind: "events", id: "run-3f2a…", methods: ["GET"] }
 * ```
 */
export function matchRunsRoute(path: string): RunsRoute | undefined {
  if (path === "/v1/runs") return { kind: "create", methods: ["POST"] };
  const match = /^\/v1\/runs\/([A-Za-z0-9_-]{1,100})(?:\/(cancel|events))?$/u.exec(path);
  if (match?.[1] === undefined) return undefined;
  if (match[2] === "cancel") return { kind: "cancel", id: match[1], methods: ["POST"] };
  if (match[2] === "events") return { kind: "events", id: match[1], methods: ["GET"] };
  return { kind: "status", id: match[1], methods: ["GET"] };
}
