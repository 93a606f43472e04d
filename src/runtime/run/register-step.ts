/**
 * A planned step joining the run.
 *
 * @module
 */
import { toErrorInfo } from "../../events/to-error-info.ts";
import { checkPlanStep } from "../../plan/check-plan-step.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import { TEXT_EMPTY_MESSAGE } from "../../plan/step-messages.ts";
import { describeValue } from "../../shared/describe-value.ts";
import { isRecord } from "../../shared/is-record.ts";
import type { Approvals } from "./approvals.ts";
import type { RunCore } from "./run-core.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepSource } from "./step-source.ts";
import type { StepEntry } from "./step-table.ts";

/**
 * Adds a step to the run's table and announces it (`step-planned`), without
 * deciding it: the run keeps its own frozen copy, so neither the planner nor
 * a consumer of the event can change what runs, and a step its approval
 * policy marks is tracked for a person. A step the run cannot take — one
 * that is not a step (no usable id, no tool name, the reserved id
 * `context`: a planner of one's own is not validated), one that is not JSON
 * (`NaN`, a function), or one whose id is taken — is dropped with a
 * `step-issue`, and its source lost it: it ends unclean and runs none of
 * its side effects.
 *
 * @param core - the run.
 * @param approvals - the run's approvals.
 * @param planned - a validated step.
 * @param source - where it came from.
 * @returns the entry, or `undefined` when the step was dropped.
 *
 * @example
 * ```ts
 * const entry = registerStep(core, approvals, step, source);
 * if (entry !== undefined) scheduler.consider(entry);
 * ```
 */
export function registerStep(
  core: RunCore,
  approvals: Approvals,
  planned: PlanStep,
  source: StepSource,
): StepEntry | undefined {
  const index = core.table.order.length;
  const drop = (stepId: unknown, code: "invalid-step" | "duplicate-id", message: string, path = ""): undefined => {
    source.lost = true;
    if (source.state === "clean") source.state = "unclean";
    const issue = { code, index, path: `/steps${path}`, message };
    core.emit({
      type: "step-issue",
      issue: typeof stepId === "string" ? { ...issue, stepId } : issue,
      action: "dropped",
    });
    return undefined;
  };
  if (!isRecord(planned))
    return drop(undefined, "invalid-step", `Step ${index + 1} is ${describeValue(planned)}, not a step`);
  let step: PlanStep;
  try {
    step = snapshotValue(planned, { freeze: true, what: `Step "${planned.id}"` }) as PlanStep;
  } catch (error) {
    return drop(planned.id, "invalid-step", toErrorInfo(error, "invalid-step").message);
  }
  const checked = checkPlanStep(step as unknown as Record<string, unknown>);
  // An empty reply text is a planner's answer to nothing (its fallback text set to ""), not a broken step.
  const problem = checked.ok ? undefined : checked.problems.find((each) => each.message !== TEXT_EMPTY_MESSAGE);
  if (problem !== undefined) {
    const label = typeof step.id === "string" ? `Step "${step.id}"` : `Step ${index + 1}`;
    const at = `/${index}${problem.path.map((key) => `/${key}`).join("")}`;
    const key = String(problem.path[0]);
    const what = Object.hasOwn(step, key)
      ? `${problem.message}, got ${describeValue(problem.input)}`
      : `it has no "${key}"`;
    return drop(step.id, "invalid-step", `${label} is invalid: ${what}`, at);
  }
  if (core.table.has(step.id))
    return drop(step.id, "duplicate-id", `Step id "${step.id}" is already taken; the step was dropped`);
  const mode = step.type === "tool" ? core.policy.approvalOf(step, step.arguments, false) : undefined;
  const entry = core.table.add(step, source);
  if (mode !== undefined) approvals.track(entry, mode);
  const safe = mode === undefined && core.policy.mayStartEarly(step);
  core.emit({ type: "step-planned", step, index: entry.index, source: source.kind, safe });
  return entry;
}
