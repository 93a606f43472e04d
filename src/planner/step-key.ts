/**
 * Telling repeated steps apart from new ones.
 *
 * @module
 */
import type { PlanStep } from "../plan/plan-step-schema.ts";

/**
 * Serializes a JSON value with object keys sorted, so equal values give equal text.
 *
 * @param value - a JSON value.
 * @returns the canonical text.
 */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

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
  if (step.type === "tool") return `tool:${step.name}:${stableJson(step.arguments)}`;
  if (step.type === "llm") return `llm:${step.prompt}`;
  return `reply:${step.text}`;
}
