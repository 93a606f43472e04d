/**
 * Approval events as the UI message stream's tool-approval chunks.
 *
 * @module
 */
import type { UIMessageChunk } from "ai";
import type { ApprovalDecisionEvent, ApprovalRequestEvent } from "../events/runtime-event.ts";

/**
 * The approval id a step's request carries in the UI message stream:
 * unique per run, request and step, so an answer to an older request (a
 * `"step"` tool asked again) is never taken for the newer one.
 *
 * @param runId - the run.
 * @param requestId - the request (`a1`, …).
 * @param stepId - the step, which is also the tool part's `toolCallId`.
 * @returns the id.
 *
 * @example
 * ```ts
 * approvalIdOf("run_1", "a1", "s2"); // "run_1:a1:s2"
 * ```
 */
export function approvalIdOf(runId: string, requestId: string, stepId: string): string {
  return `${runId}:${requestId}:${stepId}`;
}

/**
 * The chunks of an approval event: for a request, each listed step's tool
 * part gets its arguments as far as they are known (`tool-input-available`)
 * and then `tool-approval-request` (state `approval-requested`, what
 * `addToolApprovalResponse` answers), with `{ requestId, mode, waiting }`
 * as the approval's descriptor; for a decision, `tool-approval-response`.
 *
 * @param event - an `approval-request` or `approval-decision` event.
 * @returns the chunks.
 *
 * @example
 * ```ts
 * if (event.type === "approval-request" || event.type === "approval-decision") chunks.push(...toApprovalChunks(event));
 * ```
 */
export function toApprovalChunks(event: ApprovalRequestEvent | ApprovalDecisionEvent): UIMessageChunk[] {
  if (event.type === "approval-decision") {
    const chunk: UIMessageChunk = {
      type: "tool-approval-response",
      approvalId: approvalIdOf(event.runId, event.requestId, event.stepId),
      approved: event.approved,
      providerExecuted: true,
    };
    if (event.reason !== undefined) chunk.reason = event.reason;
    return [chunk];
  }
  const chunks: UIMessageChunk[] = [];
  for (const step of event.steps) {
    const input: UIMessageChunk = {
      type: "tool-input-available",
      toolCallId: step.stepId,
      toolName: step.tool,
      input: step.arguments,
      dynamic: true,
      providerExecuted: true,
    };
    if (step.description !== "") input.title = step.description;
    chunks.push(input, {
      type: "tool-approval-request",
      approvalId: approvalIdOf(event.runId, event.requestId, step.stepId),
      toolCallId: step.stepId,
      approvalDescriptor: { requestId: event.requestId, mode: step.mode, waiting: step.waiting },
    });
  }
  return chunks;
}
