/**
 * Telling repeated steps apart from new ones.
 *
 * @module
 */
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { canonicalJson } from "../shared/canonical-json.ts";

/**
 * A key for what a step does, ignoring its id, description and policy: two
 * steps with the same key call the same tool with the same arguments (or
 * ask the same prompt, or reply the same text). A planner uses it to skip
 * a step a model restates under the same id after a repair or in a
 * re-planning patch; a repeated call under a new id is kept (reading a file
 * again after writing it is a new step).
 *
 * @param step - a canonical step.
 * @returns the key.
 *
 * @example
 * ```ts
 * stepKey({ id: "s1", type: "tool", name: "calculator", arguments: { expr: "1+1" } })
 *   === stepKey({ id: "s7", type: "tool", name: "calculator", arguments: { expr: "1+1" } }); // true
 * ```
 */
export function stepKey(step: PlanStep): string {
  if (step.type === "tool") return `tool:${step.name}:${canonicalJson(step.arguments)}`;
  if (step.type === "llm") return `llm:${step.prompt}`;
  return `reply:${step.text}`;
}
