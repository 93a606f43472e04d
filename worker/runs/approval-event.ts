/**
 * The event that carries approval decisions to a durable run.
 *
 * @module
 */
import type { ApprovalDecision } from "../../src/index.ts";

/**
 * The type of the Workflow event `POST /v1/runs/:id/approvals` sends to a
 * durable run's instance (`instance.sendEvent`), and the name of the
 * `step.waitForEvent` that receives it.
 */
export const approvalEventType = "approval";

/**
 * The payload of an approval event: the decisions of one POST, applied
 * together (`run.approve`), already checked against the run's log.
 *
 * @example
 * ```ts
 * const payload: ApprovalEvent = { decisions: [{ stepId: "s2", approved: true }] };
 * await instance.sendEvent({ type: approvalEventType, payload });
 * ```
 */
export interface ApprovalEvent {
  decisions: ApprovalDecision[];
}
