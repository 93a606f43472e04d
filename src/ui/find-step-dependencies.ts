/**
 * The steps a planned step waits on, for drawing the plan.
 *
 * @module
 */
import type { StepState } from "../events/run-state.ts";

const referenceStart = /\{\{\s*([^\s{}.[\]]+)/gu;

/**
 * Collects the ids a JSON value's strings reference as `{{id…}}`.
 *
 * @param value - arguments, a prompt or a reply text.
 * @param into - where the ids go.
 */
function collectReferences(value: unknown, into: Set<string>): void {
  if (typeof value === "string") {
    for (const match of value.matchAll(referenceStart)) into.add(match[1] ?? "");
  } else if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) collectReferences(item, into);
  }
}

/**
 * The steps a step depends on: the ids its references name and its
 * `dependsOn`, kept only when they name a step planned before it.
 *
 * @param step - the step.
 * @param earlier - the ids of the steps planned before it.
 * @returns the ids, without repeats, in the order found.
 *
 * @example
 * ```ts
 * findStepDependencies(state.steps[2]!, new Set(["s1", "s2"])); // ["s1"]
 * ```
 */
export function findStepDependencies(step: StepState, earlier: ReadonlySet<string>): string[] {
  const ids = new Set<string>();
  const { id: _id, type: _type, ...rest } = step.step as Record<string, unknown>;
  collectReferences(rest, ids);
  const dependsOn = (step.step as { dependsOn?: unknown }).dependsOn;
  if (Array.isArray(dependsOn)) for (const id of dependsOn) if (typeof id === "string") ids.add(id);
  return [...ids].filter((id) => earlier.has(id));
}
