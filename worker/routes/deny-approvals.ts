/**
 * Approval requests in a run nobody can answer.
 *
 * @module
 */
import type { RunHandle } from "../../src/index.ts";

/** Why a step of a run answered in the request is denied. */
export const noApproverReason =
  "Nobody can approve a step of a run answered in the request; POST /v1/runs starts a run that asks a person";

/**
 * Denies each step a run asks approval for, the moment it asks, with
 * {@link noApproverReason}: in a run answered in the request (`/v1/run`,
 * `/v1/chat`, `/v1/chat/completions`) there is nobody to ask, so the run
 * goes on without the step (`approval-decision` with `by: "caller"`,
 * `step-skipped` with code `denied`) instead of waiting until its deadline.
 *
 * @param run - the run.
 * @returns resolves when the run has ended.
 *
 * @example
 * ```ts
 * void denyApprovals(runtime.run(query));
 * ```
 */
export async function denyApprovals(run: RunHandle): Promise<void> {
  for await (const event of run) {
    if (event.type !== "approval-request") continue;
    const decisions = event.steps.map(({ stepId }) => ({ stepId, approved: false, reason: noApproverReason }));
    try {
      run.approve(decisions);
    } catch {
      // The run ended, or a step was decided, between the request and this decision: nothing is left to deny.
    }
  }
}
