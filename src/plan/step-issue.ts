/**
 * Building a plan issue about a step at a place of the plan.
 *
 * @module
 */
import type { PlanIssue } from "./plan-issue.ts";

/**
 * Builds a plan issue about a step: its path is `/steps/<index>` and the
 * place inside the step, and its message ends with the path.
 *
 * @param code - the issue code.
 * @param index - the step's position.
 * @param stepId - the step's id, if known.
 * @param message - what happened, without the path.
 * @param pointer - the place inside the step (`/arguments`), if any.
 * @returns the issue.
 *
 * @example
 * ```ts
 * stepIssue("too-many-steps", 3, "s4", 'Call "s4" to "search" exceeds the limit of 4 steps');
 * // { code: "too-many-steps", index: 3, path: "/steps/3", message: "… (/steps/3)", stepId: "s4" }
 * ```
 */
export function stepIssue(
  code: PlanIssue["code"],
  index: number,
  stepId: string | undefined,
  message: string,
  pointer = "",
): PlanIssue {
  return placedIssue(code, index, `/steps/${index}${pointer}`, message, stepId);
}

/**
 * Builds a plan issue at a path of the plan: its message ends with the path.
 *
 * @param code - the issue code.
 * @param index - the step's position, or -1 when the issue is about no one step.
 * @param path - where in the plan (`/vertices/2`).
 * @param message - what happened, without the path.
 * @param stepId - the step's id, if known.
 * @returns the issue.
 */
export function placedIssue(
  code: PlanIssue["code"],
  index: number,
  path: string,
  message: string,
  stepId?: string,
): PlanIssue {
  const issue: PlanIssue = { code, index, path, message: `${message} (${path})` };
  if (stepId !== undefined) issue.stepId = stepId;
  return issue;
}
