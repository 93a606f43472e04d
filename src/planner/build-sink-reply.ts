/**
 * The reply a planner adds when the model wrote none.
 *
 * @module
 */
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { referencesOf } from "../plan/references-of.ts";

/**
 * Picks ids for steps a planner adds: the preferred id, or that id with the
 * first free `_1`, `_2`, … suffix.
 *
 * @param taken - the ids already in use (steps, and ids that may not be reused).
 * @returns a function from a preferred id to a free one.
 *
 * @example
 * ```ts
 * const freeId = createIdPicker(["reply"]);
 * freeId("reply"); // "reply_1"
 * ```
 */
export function createIdPicker(taken: Iterable<string>): (preferred: string) => string {
  const used = new Set(taken);
  return (preferred) => {
    let id = preferred;
    for (let suffix = 1; used.has(id); suffix++) id = `${preferred}_${suffix}`;
    used.add(id);
    return id;
  };
}

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
 * buildSinkReply([{ id: "s1", type: "tool", name: "search", arguments: {} }], "reply").reply.text; // "{{s1}}"
 * ```
 */
export function buildSinkReply(planned: readonly PlanStep[], id: string): { reply: PlanStep; quoted: string } {
  const used = new Set(planned.flatMap((step) => referencesOf(step)));
  const sinks = planned.filter((step) => !used.has(step.id));
  return {
    reply: { id, type: "reply", text: sinks.map((step) => `{{${step.id}}}`).join("\n\n") },
    quoted: sinks.map((step) => `"${step.id}"`).join(", "),
  };
}
