/**
 * Rendering a goal as prompt context.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import type { PlanGoal } from "./plan-goal.ts";

/**
 * Renders a goal as plain text for a planning prompt's `CONTEXT` section:
 * the objective, then the constraints (with time, quality and the care
 * secrets need), requirements, success metrics and risks. Empty parts are
 * left out.
 *
 * @param goal - the goal from `understandRequest()`.
 * @returns the text.
 * @throws PlankitError `invalid-argument` for anything but a goal (a promise of one included).
 *
 * @example
 * ```ts
 * const goal = await understandRequest({ model, query });
 * const steps = await planner.plan({ query, tools, context: renderGoal(goal) });
 * ```
 */
export function renderGoal(goal: PlanGoal): string {
  const lists = ["constraints", "requirements", "metrics", "resources", "risks"] as const;
  if (!isRecord(goal) || typeof goal.objective !== "string" || !lists.every((name) => Array.isArray(goal[name])))
    throw new PlankitError(
      "invalid-argument",
      `renderGoal takes the goal understandRequest resolves to (await it), got ${describeValue(goal)}`,
    );
  const lines = [`Goal: ${goal.objective}`];
  const constraints = [...goal.constraints];
  if (goal.time !== undefined) constraints.push(`time: ${goal.time}`);
  if (goal.quality !== undefined) constraints.push(`quality: ${goal.quality}`);
  if (goal.sensitive)
    constraints.push("the request involves secrets: never echo them or send them to tools that do not need them");
  const list = (title: string, items: readonly string[]): void => {
    if (items.length > 0) lines.push(`${title}:`, ...items.map((item) => `- ${item}`));
  };
  list("Constraints", constraints);
  list("Requirements", goal.requirements);
  list("Success metrics", goal.metrics);
  list("Resources", goal.resources);
  list("Risks", goal.risks);
  return lines.join("\n");
}
