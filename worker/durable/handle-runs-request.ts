/**
 * The `/v1/runs` routes: durable and session runs.
 *
 * @module
 */
import { problemResponse } from "../http/problem-response.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import type { SelectedModel } from "../select-model.ts";
import type { WorkerEnv } from "../worker-env.ts";
import { createRunId } from "./create-run-id.ts";
import type { DurableRunParams } from "./durable-run-params.ts";
import { matchRunsRoute } from "./match-runs-route.ts";
import { parseRunId } from "./parse-run-id.ts";
import { createRunsBodySchema } from "./runs-body-schema.ts";

/** What the `/v1/runs` routes get from the Worker, after its CORS and token checks. */
export interface RunsContext {
  env: WorkerEnv;
  /** The model the Worker selected, named in the run's first event. */
  selected: SelectedModel;
  /** The tools a request may name. */
  toolNames: readonly string[];
  /** The largest body accepted, in bytes. */
  limit: number;
}

/** A Workflow instance's status, as the status route reports it. */
interface WorkflowReport {
  status: string;
  error?: { name: string; message: string };
}

/**
 * Asks the Workflow for an instance's status.
 *
 * @param workflow - the binding.
 * @param id - the instance (run) id.
 * @returns the status, `unknown` when the instance cannot be found or asked.
 */
async function readWorkflowStatus(workflow: Workflow<DurableRunParams>, id: string): Promise<WorkflowReport> {
  try {
    const status = await (await workflow.get(id)).status();
    return status.error === undefined ? { status: status.status } : { status: status.status, error: status.error };
  } catch {
    return { status: "unknown" };
  }
}

/**
 * Answers the `/v1/runs` routes (see `matchRunsRoute`):
 *
 * - `POST /v1/runs` with the `/v1/run` body plus `durable` (default
 *   `true`) and `session`: records the run in its session object and starts
 *   it — as a `PlanWorkflow` instance, or (`durable: false`) inside the
 *   session object — then answers `202 { id, session, durable, links }`
 *   with `Location` and `x-plankit-run-id`;
 * - `GET /v1/runs/:id`: the Workflow instance's status (durable runs) and the
 *   run's summary replayed from its log;
 * - `POST /v1/runs/:id/cancel`: terminates the Workflow instance (or aborts
 *   the session run) and ends the log with `run-end` (`aborted`); `409
 *   run-ended` when it had ended;
 * - `GET /v1/runs/:id/events`: the run's log as SSE from the session
 *   object, resumable with `Last-Event-ID` (or `?after=<id>`).
 *
 * Problems: 501 `not-configured` without the bindings, 404 `unknown-run`,
 * 409 `run-ended`, 503 `workflow-unavailable`, and the body problems of
 * `readJsonBody`.
 *
 * @param request - the request (CORS and token already checked).
 * @param path - its path.
 * @param context - the environment, the model, the tool names and the body limit.
 * @returns the response.
 *
 * @example
 * ```ts
 * if (matchRunsRoute(path) !== undefined) return handleRunsRequest(request, path, { env, selected, toolNames, limit });
 * ```
 */
export async function handleRunsRequest(request: Request, path: string, context: RunsContext): Promise<Response> {
  const { env } = context;
  const route = matchRunsRoute(path);
  const namespace = env.PLAN_SESSION;
  if (route === undefined) return problemResponse(404, `No route for ${request.method} ${path}`, { code: "not-found" });
  if (namespace === undefined) {
    return problemResponse(501, "Runs need the PLAN_SESSION Durable Object binding; see wrangler.toml", { code: "not-configured" });
  }

  if (route.kind === "create") {
    const read = await readJsonBody(request, context.limit, createRunsBodySchema(context.toolNames), '{"query":"…","durable":true}');
    if (!read.ok) return read.response;
    const body = read.body;
    const durable = body.durable ?? true;
    const workflow = env.PLAN_WORKFLOW;
    if (durable && workflow === undefined) {
      return problemResponse(501, "Durable runs need the PLAN_WORKFLOW Workflow binding; see wrangler.toml (or send durable: false)", { code: "not-configured" });
    }
    const runId = createRunId(body.session);
    const session = body.session ?? runId;
    const params: DurableRunParams = { runId, session, query: body.query };
    if (body.profile !== undefined) params.profile = body.profile as NonNullable<DurableRunParams["profile"]>;
    if (body.tools !== undefined) params.tools = [...body.tools];
    if (body.maxSteps !== undefined) params.maxSteps = body.maxSteps;
    const stub = namespace.get(namespace.idFromName(session));
    if (durable && workflow !== undefined) {
      await stub.startRun({ runId, mode: "durable", query: body.query, model: { name: context.selected.name, provider: context.selected.provider } });
      try {
        await workflow.create({ id: runId, params });
      } catch {
        await stub.closeRun(runId, "failed", { code: "internal-error", message: "The Workflow instance could not be created" });
        return problemResponse(503, "The durable run could not be started; try again", { code: "workflow-unavailable" }, { "retry-after": "5" });
      }
    } else {
      await stub.runInSession(params);
    }
    const links = { self: `/v1/runs/${runId}`, events: `/v1/runs/${runId}/events`, cancel: `/v1/runs/${runId}/cancel` };
    return Response.json({ id: runId, session, durable, links }, { status: 202, headers: { location: links.self, "x-plankit-run-id": runId, "cache-control": "no-store" } });
  }

  const parsed = parseRunId(route.id);
  const unknown = (): Response => problemResponse(404, `No run ${route.id}`, { code: "unknown-run" });
  if (parsed === undefined) return unknown();
  const stub = namespace.get(namespace.idFromName(parsed.session));

  if (route.kind === "events") {
    const url = new URL(request.url);
    const forwarded = new URL("https://plan-session/events");
    forwarded.searchParams.set("run", parsed.runId);
    const after = url.searchParams.get("after");
    if (after !== null) forwarded.searchParams.set("after", after);
    const lastEventId = request.headers.get("last-event-id");
    const response = await stub.fetch(forwarded, { headers: lastEventId === null ? {} : { "last-event-id": lastEventId }, signal: request.signal });
    return new Response(response.body, { status: response.status, headers: { ...Object.fromEntries(response.headers), "x-plankit-run-id": parsed.runId } });
  }

  const summary = await stub.summary(parsed.runId);
  if (summary === undefined) return unknown();
  const durable = summary.mode === "durable";

  if (route.kind === "status") {
    const workflow = durable && env.PLAN_WORKFLOW !== undefined ? await readWorkflowStatus(env.PLAN_WORKFLOW, parsed.runId) : undefined;
    return Response.json({ id: parsed.runId, session: parsed.session, durable, ...(workflow === undefined ? {} : { workflow }), run: summary }, { headers: { "cache-control": "no-store", "x-plankit-run-id": parsed.runId } });
  }

  if (summary.ended) return problemResponse(409, `Run ${parsed.runId} has already ended (${summary.reason ?? "ended"})`, { code: "run-ended", reason: summary.reason });
  if (durable && env.PLAN_WORKFLOW !== undefined) {
    try {
      await (await env.PLAN_WORKFLOW.get(parsed.runId)).terminate();
    } catch {
      // Already finished, or never created: the log is closed below either way.
    }
  }
  const outcome = await stub.cancelRun(parsed.runId);
  if (outcome === "ended") return problemResponse(409, `Run ${parsed.runId} has already ended`, { code: "run-ended" });
  return Response.json({ id: parsed.runId, cancelled: true, run: await stub.summary(parsed.runId) }, { headers: { "cache-control": "no-store", "x-plankit-run-id": parsed.runId } });
}
