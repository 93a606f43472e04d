/**
 * `POST /v1/runs/:id/cancel`.
 *
 * @module
 */

import { HttpProblem } from "../http/http-problem.ts";
import { disposeStub } from "../runs/dispose-stub.ts";
import { sessionOfRun } from "../runs/session-of-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `POST /v1/runs/:id/cancel`: terminates the Workflow instance (or aborts
 * the session run) and ends the log with `run-end` (`aborted`); answers
 * `{ id, cancelled: true, run }`. 404 `unknown-run`; 409 `run-ended` when
 * it had ended.
 */
export const runCancelRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/runs/:id/cancel",
  errors: "problem-details",
  handle: async (c) => {
    const { runId, stub } = sessionOfRun(c);
    const summary = await stub.summary(runId);
    if (summary === undefined) throw new HttpProblem(404, `No run ${runId}`, { code: "unknown-run" });
    if (summary.ended)
      throw new HttpProblem(409, `Run ${runId} has already ended (${summary.reason ?? "ended"})`, {
        code: "run-ended",
        extras: { reason: summary.reason },
      });
    const workflow = c.env?.PLAN_WORKFLOW;
    if (summary.mode === "durable" && workflow !== undefined) {
      let instance: WorkflowInstance | undefined;
      try {
        instance = await workflow.get(runId);
        await instance.terminate();
      } catch {
        // Already finished, or never created: the log is closed below either way.
      } finally {
        disposeStub(instance);
      }
    }
    const outcome = await stub.cancelRun(runId);
    if (outcome === "ended") throw new HttpProblem(409, `Run ${runId} has already ended`, { code: "run-ended" });
    return c.json({ id: runId, cancelled: true, run: await stub.summary(runId) }, 200, {
      "cache-control": "no-store",
      "x-plankit-run-id": runId,
    });
  },
};
