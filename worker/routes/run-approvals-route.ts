/**
 * `POST /v1/runs/:id/approvals`.
 *
 * @module
 */
import type { ApprovalDecision } from "../../src/index.ts";
import { HttpProblem } from "../http/http-problem.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { ApprovalsBodySchema } from "../runs/approvals-body-schema.ts";
import { sessionOfRun } from "../runs/session-of-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `POST /v1/runs/:id/approvals` (`{ decisions: [...] }`): decides the steps
 * a run's `approval-request` events listed, all or nothing — a session
 * run's `run.approve`, or, for a durable run, checked against its log and
 * sent to its Workflow instance, which applies them when it next waits.
 * Answers `202 { id, decisions, awaitingApproval }`. Problems: 400
 * `invalid-body` (naming the field), 400 `invalid-argument` (edited
 * arguments the tool refuses; the detail names the path), 404
 * `unknown-run`, 409 `invalid-approval` (a step not waiting for a decision,
 * or decided already; `stepId` names it), 409 `run-ended`, 503
 * `workflow-unavailable` (a durable run's instance could not be reached).
 */
export const runApprovalsRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/runs/:id/approvals",
  errors: "problem-details",
  body: "api",
  handle: async (c) => {
    const { runId, stub } = sessionOfRun(c);
    const body = await readJsonBody(c.req.raw, ApprovalsBodySchema, '{"decisions":[{"stepId":"s2","approved":true}]}');
    const decisions = body.decisions as ApprovalDecision[];
    const outcome = await stub.approve(runId, decisions);
    if (!outcome.ok) {
      const extras = outcome.stepId === undefined ? undefined : { stepId: outcome.stepId };
      throw new HttpProblem(outcome.status, outcome.message, {
        code: outcome.code,
        ...(extras === undefined ? {} : { extras }),
      });
    }
    return c.json({ id: runId, decisions, awaitingApproval: outcome.awaitingApproval }, 202, {
      "cache-control": "no-store",
      "x-plankit-run-id": runId,
    });
  },
};
