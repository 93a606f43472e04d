/**
 * How a plan's end is judged: it must have steps, and end with a reply.
 *
 * @module
 */
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { placedIssue, stepIssue } from "../plan/step-issue.ts";

/**
 * The issue of a plan that has no steps, or does not end with a reply step,
 * worded the same wherever a plan is validated (whole, streamed, or by the
 * planner).
 *
 * @param count - the places in the plan (read or not).
 * @param sawReply - whether a reply step was seen within the limit.
 * @param stepAt - the step at a place, when it was read.
 * @param maxSteps - the limit of steps, if any.
 * @returns the issue, or `undefined` when the plan ends well.
 *
 * @example
 * ```ts
 * closingIssue(2, false, (index) => steps[index]); // { code: "no-reply", index: 1, stepId: "s2", … }
 * ```
 */
export function closingIssue(
  count: number,
  sawReply: boolean,
  stepAt: (index: number) => PlanStep | undefined,
  maxSteps?: number,
): PlanIssue | undefined {
  if (count === 0) return placedIssue("empty-plan", 0, "/steps", "The plan has no steps");
  if (sawReply) return undefined;
  const index = Math.min(count, maxSteps ?? count) - 1;
  const last = stepAt(index);
  const detail =
    last === undefined ? "" : `; its last step "${last.id}" is ${last.type === "llm" ? "an" : "a"} ${last.type} step`;
  return stepIssue("no-reply", index, last?.id, `The plan does not end with a reply step${detail}`);
}
