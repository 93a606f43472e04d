/**
 * `GET /v1/runs/:id`.
 *
 * @module
 */

import { HttpProblem } from "../http/http-problem.ts";
import { disposeStub } from "../runs/dispose-stub.ts";
import type { DurableRunParams } from "../runs/durable-run-params.ts";
import { sessionOfRun } from "../runs/session-of-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

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
  let instance: WorkflowInstance | undefined;
  try {
    instance = await workflow.get(id);
    const status = await instance.status();
    return status.error === undefined ? { status: status.status } : { status: status.status, error: status.error };
  } catch {
    return { status: "unknown" };
  } finally {
    disposeStub(instance);
  }
}

/**
 * `GET /v1/runs/:id`: `{ id, session, durable, workflow?, run }` — the
 * Workflow instance's status (durable runs) and the run's summary replayed
 * from its log (secrets redacted like every response). 404 `unknown-run`.
 */
export const runStatusRoute: WorkerRoute = {
  method: "GET",
  path: "/v1/runs/:id",
  errors: "problem-details",
  handle: async (c) => {
    const { runId, session, stub } = sessionOfRun(c);
    const summary = await stub.summary(runId);
    if (summary === undefined) throw new HttpProblem(404, `No run ${runId}`, { code: "unknown-run" });
    const durable = summary.mode === "durable";
    const workflow =
      durable && c.env?.PLAN_WORKFLOW !== undefined ? await readWorkflowStatus(c.env.PLAN_WORKFLOW, runId) : undefined;
    return c.json({ id: runId, session, durable, ...(workflow === undefined ? {} : { workflow }), run: summary }, 200, {
      "cache-control": "no-store",
      "x-plankit-run-id": runId,
    });
  },
};
