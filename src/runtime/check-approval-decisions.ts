/**
 * Checking approval decisions against a run's recorded state.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { ApprovalDecision } from "../events/approval-decision.ts";
import type { RunState, StepState } from "../events/run-state.ts";
import { referencesOf } from "../plan/references-of.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import { checkDecisions, type DecisionTarget } from "./run/check-decisions.ts";
import type { ApprovalState, EntryStatus } from "./run/step-table.ts";

/**
 * A recorded step as a decision sees it.
 *
 * @param state - the step's recorded state.
 * @returns the target.
 */
function toTarget(state: StepState): DecisionTarget {
  const status: EntryStatus =
    state.status === "planned" ? "pending" : state.status === "retrying" ? "running" : state.status;
  const approval = state.approval;
  let gate: ApprovalState | undefined;
  if (approval?.status === "denied")
    gate = { mode: approval.mode, status: "denied", requestId: approval.requestId, reason: approval.reason };
  else if (approval !== undefined)
    gate = { mode: approval.mode, status: approval.status, requestId: approval.requestId, shown: approval.arguments };
  return { step: state.step, status, skipCode: state.skip?.code, deps: referencesOf(state.step), approval: gate };
}

/**
 * Checks approval decisions against a run's state as its events record it
 * (`replay(log)`) — for a server that holds a run's log but not the run
 * itself (a durable run, asleep until the decision reaches it). It applies
 * exactly the checks `RunHandle.approve` applies, with the same errors, so
 * a server can refuse a bad decision before it is sent; the live run
 * checks it again when it arrives.
 *
 * @param state - the run's state, `replay(events)`.
 * @param decisions - one decision or several.
 * @param registry - the run's tools, for edited arguments.
 * @returns the decisions as the run would apply them: edited arguments copied, a blank denial reason left out.
 * @throws PlankitError `invalid-approval` naming the step when it is unknown, needs no approval, is not asked yet, was already decided or ended, or the run ended; `invalid-argument` naming the JSON Pointer and the value when edited arguments do not fit the tool's schema.
 *
 * @example
 * ```ts
 * const decisions = checkApprovalDecisions(replay(log), [{ stepId: "s2", approved: true }], registry);
 * ```
 */
export function checkApprovalDecisions(
  state: RunState,
  decisions: ApprovalDecision | readonly ApprovalDecision[],
  registry: ToolRegistry,
): ApprovalDecision[] {
  if (state.status === "ended")
    throw new PlankitError("invalid-approval", `Run "${state.runId}" already ended; no step waits for approval`);
  const steps = new Map<string, StepState>();
  for (const step of state.steps) steps.set(step.step.id, step);
  const targets = new Map<string, DecisionTarget>();
  const find = (stepId: string): DecisionTarget | undefined => {
    const step = steps.get(stepId);
    if (step === undefined) return undefined;
    const target = targets.get(stepId) ?? toTarget(step);
    targets.set(stepId, target);
    return target;
  };
  return checkDecisions(decisions, find, registry).map((checked): ApprovalDecision => {
    const stepId = checked.entry.step.id;
    if (!checked.approved)
      return {
        stepId,
        approved: false,
        ...(checked.reason === undefined ? {} : { reason: checked.reason }),
        ...(checked.replan ? { replan: true } : {}),
      };
    return checked.arguments === undefined
      ? { stepId, approved: true }
      : { stepId, approved: true, arguments: checked.arguments };
  });
}
