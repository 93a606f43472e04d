/**
 * The ids a step depends on.
 *
 * @module
 */

import { CONTEXT_REFERENCE_ROOT } from "./context-reference-root.ts";
import { findReferences } from "./find-references.ts";
import type { PlanStep } from "./plan-step-schema.ts";

/**
 * Lists the ids of the steps a step depends on: the ids its references name
 * (in order of appearance) followed by any extra ids in `dependsOn`. Each id
 * appears once; run-context references (`{{context.key}}`) are not steps and
 * are left out.
 *
 * @param step - a canonical step.
 * @returns the ids, without duplicates.
 *
 * @example
 * ```ts
 * referencesOf({ id: "s3", type: "llm", prompt: "Compare {{s1}} with {{s2.title}}", dependsOn: ["s0"] });
 * // ["s1", "s2", "s0"]
 * ```
 */
export function referencesOf(step: PlanStep): string[] {
  const source = step.type === "tool" ? step.arguments : step.type === "llm" ? step.prompt : step.text;
  const ids = new Set<string>();
  for (const reference of findReferences(source)) {
    if (reference.id !== CONTEXT_REFERENCE_ROOT) ids.add(reference.id);
  }
  for (const id of step.dependsOn ?? []) ids.add(id);
  return [...ids];
}
