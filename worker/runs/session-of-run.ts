/**
 * The session object of a run.
 *
 * @module
 */
import type { Context } from "hono";
import { HttpProblem } from "../http/http-problem.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";
import { parseRunId } from "./parse-run-id.ts";
import type { PlanSession } from "./plan-session.ts";

/**
 * The session objects' namespace, or 501 `not-configured` without the binding.
 *
 * @param c - the request's context.
 * @returns the namespace.
 * @throws HttpProblem 501 when `PLAN_SESSION` is not bound.
 */
export function requireSessions(c: Context<WorkerAppEnv>): DurableObjectNamespace<PlanSession> {
  const namespace = c.env?.PLAN_SESSION;
  if (namespace === undefined)
    throw new HttpProblem(501, "Runs need the PLAN_SESSION Durable Object binding; see wrangler.toml", {
      code: "not-configured",
    });
  return namespace;
}

/**
 * The run of a `/v1/runs/:id…` route and the stub of its session object.
 *
 * @param c - the request's context (its `id` parameter is the run id).
 * @returns the run id, the session, and the stub.
 * @throws HttpProblem 501 without the binding, 404 `unknown-run` for an id that names no session (saying what one looks like).
 *
 * @example
 * ```ts
 * const { runId, stub } = sessionOfRun(c);
 * const summary = await stub.summary(runId);
 * ```
 */
export function sessionOfRun(c: Context<WorkerAppEnv>): {
  runId: string;
  session: string;
  stub: DurableObjectStub<PlanSession>;
} {
  const namespace = requireSessions(c);
  const id = c.req.param("id") ?? "";
  const parsed = parseRunId(id);
  if (parsed === undefined)
    throw new HttpProblem(
      404,
      `No run ${id}: a run id is run- and 32 hex digits, then -<session> for a run of a named session`,
      { code: "unknown-run" },
    );
  return { runId: parsed.runId, session: parsed.session, stub: namespace.get(namespace.idFromName(parsed.session)) };
}
