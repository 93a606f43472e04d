/**
 * The reply a planner adds when the model wrote none.
 *
 * @module
 */
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { referencesOf } from "../plan/references-of.ts";

/**
 * Builds a reply quoting a plan's final results: the steps no other step
 * references, each as `{{id}}`, one per paragraph.
 *
 * @param planned - the plan's steps, without a reply.
 * @param id - the reply's id.
 * @returns the reply and the quoted ids as a list for a message (`"s1", "s2"`).
 *
 * @example
 * ```ts
 * buildQuotingReply([{ id: "s1", type: "tool", name: "search", arguments: {} }], "reply").reply.text; // "{{s1}}"
 * ```
 */
export function buildQuotingReply(planned: readonly PlanStep[], id: string): { reply: PlanStep; quoted: string } {
  const used = new Set(planned.flatMap((step) => referencesOf(step)));
  const sinks = planned.filter((step) => !used.has(step.id));
  return {
    reply: { id, type: "reply", text: sinks.map((step) => `{{${step.id}}}`).join("\n\n") },
    quoted: sinks.map((step) => `"${step.id}"`).join(", "),
  };
}
