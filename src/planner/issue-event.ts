/**
 * The event of a step a planner dropped or repaired.
 *
 * @module
 */
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlannerEvent } from "./planner-event.ts";

/**
 * Reports an issue as a planner event.
 *
 * @param issue - what was wrong.
 * @param action - whether the step was dropped or repaired.
 * @returns the `issue` event.
 *
 * @example
 * ```ts
 * yield issueEvent(stepIssue("invalid-step", 2, undefined, "Step 3 was cut off"));
 * ```
 */
export function issueEvent(issue: PlanIssue, action: "dropped" | "repaired" = "dropped"): PlannerEvent {
  return { type: "issue", issue, action };
}
