/**
 * The steps a planner's stream ends with.
 *
 * @module
 */
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { PlannerEvent } from "./planner-event.ts";

/**
 * Reads a planner's stream to its end.
 *
 * @param events - the stream.
 * @returns the steps of its `done` event.
 */
export async function finalSteps(events: AsyncIterable<PlannerEvent>): Promise<PlanStep[]> {
  let steps: PlanStep[] = [];
  for await (const event of events) if (event.type === "done") steps = event.steps;
  return steps;
}
