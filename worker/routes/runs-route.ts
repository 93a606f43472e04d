/**
 * `POST /v1/runs`.
 *
 * @module
 */

import { HttpProblem } from "../http/http-problem.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { createRunId } from "../runs/create-run-id.ts";
import { disposeStub } from "../runs/dispose-stub.ts";
import type { DurableRunParams } from "../runs/durable-run-params.ts";
import { createRunsBodySchema } from "../runs/runs-body-schema.ts";
import { requireSessions } from "../runs/session-of-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `POST /v1/runs` with the `/v1/run` body plus `durable` (default `true`)
 * and `session`: records the run in its session object and starts it — as
 * a `PlanWorkflow` instance, or (`durable: false`) inside the session
 * object — then answers `202 { id, session, durable, links }` with
 * `Location` and `x-plankit-run-id`. Problems: 501 `not-configured`
 * without the bindings, 503 `workflow-unavailable`, and the body's.
 */
export const runsRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/runs",
  errors: "problem-details",
  body: "api",
  handle: async (c) => {
    const namespace = requireSessions(c);
    const { selected, registry } = c.var;
    const body = await readJsonBody(
      c.req.raw,
      createRunsBodySchema(registry.list().map((tool) => tool.name)),
      '{"query":"…","durable":true}',
    );
    const durable = body.durable ?? true;
    const workflow = c.env?.PLAN_WORKFLOW;
    if (durable && workflow === undefined) {
      throw new HttpProblem(
        501,
        "Durable runs need the PLAN_WORKFLOW Workflow binding; see wrangler.toml (or send durable: false)",
        { code: "not-configured" },
      );
    }
    const runId = createRunId(body.session);
    const session = body.session ?? runId;
    const params: DurableRunParams = { runId, session, query: body.query, engine: 3 };
    if (body.profile !== undefined) params.profile = body.profile as NonNullable<DurableRunParams["profile"]>;
    if (body.tools !== undefined) params.tools = [...body.tools];
    if (body.maxSteps !== undefined) params.maxSteps = body.maxSteps;
    const stub = namespace.get(namespace.idFromName(session));
    if (durable && workflow !== undefined) {
      await stub.startRun({
        runId,
        mode: "durable",
        query: body.query,
        model: { name: selected.name, provider: selected.provider },
      });
      try {
        const instance = await workflow.create({ id: runId, params });
        disposeStub(instance);
      } catch {
        await stub.closeRun(runId, "failed", {
          code: "internal-error",
          message: "The Workflow instance could not be created",
        });
        throw new HttpProblem(503, "The durable run could not be started; try again", {
          code: "workflow-unavailable",
          headers: { "retry-after": "5" },
        });
      }
    } else {
      await stub.runInSession(params);
    }
    const links = {
      self: `/v1/runs/${runId}`,
      events: `/v1/runs/${runId}/events`,
      cancel: `/v1/runs/${runId}/cancel`,
      approvals: `/v1/runs/${runId}/approvals`,
    };
    return c.json({ id: runId, session, durable, links }, 202, {
      location: links.self,
      "x-plankit-run-id": runId,
      "cache-control": "no-store",
    });
  },
};
