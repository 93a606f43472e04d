/**
 * The approve / deny answers of an AI SDK UI message as run decisions.
 *
 * @module
 */
import type { ApprovalDecision } from "../events/approval-decision.ts";
import type { RunState } from "../events/run-state.ts";
import { approvalIdOf } from "./to-approval-chunks.ts";

/**
 * Reads the answers a `useChat` app gave with `addToolApprovalResponse`
 * (tool parts in state `approval-responded`) from a UI message, and keeps
 * those that answer a step of the run that waits now, for the request it
 * waits on (an answer to an older request of a step asked again is
 * ignored). Pass the result to `RunHandle.approve`.
 *
 * @param message - the assistant UI message of the run (`{ parts }`).
 * @param state - the run's state (`run.state`, or `replay(events)`).
 * @returns the decisions, in the order of the parts.
 *
 * @example
 * ```ts
 * const decisions = fromUIApprovalResponses(messages.at(-1), run.state);
 * if (decisions.length > 0) run.approve(decisions);
 * ```
 */
export function fromUIApprovalResponses(message: unknown, state: RunState): ApprovalDecision[] {
  const parts = typeof message === "object" && message !== null ? (message as { parts?: unknown }).parts : undefined;
  if (!Array.isArray(parts) || state.runId === undefined) return [];
  const waiting = new Set(state.awaitingApproval);
  const decisions: ApprovalDecision[] = [];
  for (const part of parts as unknown[]) {
    if (typeof part !== "object" || part === null) continue;
    const {
      state: partState,
      toolCallId,
      approval,
    } = part as {
      state?: unknown;
      toolCallId?: unknown;
      approval?: { id?: unknown; approved?: unknown; reason?: unknown };
    };
    if (partState !== "approval-responded" || typeof toolCallId !== "string" || !waiting.has(toolCallId)) continue;
    const requestId = state.steps.find((step) => step.step.id === toolCallId)?.approval?.requestId;
    if (
      requestId === undefined ||
      approval?.id !== approvalIdOf(state.runId, requestId, toolCallId) ||
      typeof approval.approved !== "boolean"
    )
      continue;
    waiting.delete(toolCallId);
    if (approval.approved) decisions.push({ stepId: toolCallId, approved: true });
    else
      decisions.push(
        typeof approval.reason === "string"
          ? { stepId: toolCallId, approved: false, reason: approval.reason }
          : { stepId: toolCallId, approved: false },
      );
  }
  return decisions;
}
