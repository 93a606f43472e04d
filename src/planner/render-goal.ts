/**
 * Rendering a goal as prompt context.
 *
 * @module
 */
import type { PlanGoal } from "./plan-goal.ts";

/**
 * Renders a goal as plain text for a planning prompt's `CONTEXT` section:
 * the objective, then the constraints (with time, quality and the care
 * secrets need), requirements, success metrics and risks. Empty parts are
 * left out.
 *
 * @param goal - the goal from `understandRequest()`.
 * @returns the text.
 *
 * @example
 * ```ts
 * const goal = await understandRequest({ model, query });
 * const steps = await planner.plan({ query, tools, context: renderGoal(goal) });
 * ```
 */
export function renderGoal(goal: PlanGoal): string {
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
