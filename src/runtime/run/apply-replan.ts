/**
 * Fitting a re-plan patch into the run.
 *
 * @module
 */
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import { isRecord } from "../../shared/is-record.ts";
import { mapStrings } from "../../shared/map-strings.ts";

/**
 * Rewrites references to `from` as references to `to` in every string of a value.
 *
 * @param value - step arguments, a prompt or a reply text.
 * @param from - the old id.
 * @param to - the new id.
 * @returns the value with references renamed.
 */
function renameReferences(value: unknown, from: string, to: string): unknown {
  const escaped = from.replace(/[\\^$.*+?()[\]{}|]/gu, "\\$&");
  const pattern = new RegExp(`\\{\\{(\\s*)${escaped}(?=[\\s.\\[}])`, "gu");
  return mapStrings(value, (text) => text.replace(pattern, `{{$1${to}`));
}

/**
 * A step with references to `from` renamed to `to`, in its data and `dependsOn`.
 *
 * @param step - a step.
 * @param from - the old id.
 * @param to - the new id.
 * @returns the renamed step.
 */
function renameInStep(step: PlanStep, from: string, to: string): PlanStep {
  const renamed = { ...step } as PlanStep;
  if (renamed.type === "tool")
    renamed.arguments = renameReferences(renamed.arguments, from, to) as Record<string, unknown>;
  else if (renamed.type === "llm") renamed.prompt = renameReferences(renamed.prompt, from, to) as string;
  else renamed.text = renameReferences(renamed.text, from, to) as string;
  if (renamed.dependsOn !== undefined) renamed.dependsOn = renamed.dependsOn.map((id) => (id === from ? to : id));
  return renamed;
}

/**
 * Gives a patch's steps ids that are free in the run: a step whose id is
 * taken becomes `<id>_r<attempt>` (or `<id>_r<attempt>_<n>`), and later steps
 * of the patch that reference it are rewritten. Completed steps are never
 * re-run: a patch step reusing a completed step's id is a new step.
 *
 * @param patch - the planner's steps.
 * @param attempt - the re-plan number.
 * @param taken - whether an id is used by the run already.
 * @returns the steps to add and the renames `{ planned: assigned }`.
 *
 * @example
 * ```ts
 * renamePatch([{ id: "s2", type: "tool", name: "x", arguments: {} }], 1, (id) => id === "s2"); // steps: [{ id: "s2_r1", … }]
 * ```
 */
export function renamePatch(
  patch: readonly PlanStep[],
  attempt: number,
  taken: (id: string) => boolean,
): { steps: PlanStep[]; renamed: Record<string, string> } {
  const renamed: Record<string, string> = {};
  const steps = [...patch];
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index];
    // An entry that is not a step keeps its place: the run drops it when it registers the patch.
    if (!isRecord(step) || !taken(step.id)) continue;
    let fresh = `${step.id}_r${attempt}`;
    for (let suffix = 2; taken(fresh) || steps.some((other) => other?.id === fresh); suffix++)
      fresh = `${step.id}_r${attempt}_${suffix}`;
    renamed[step.id] = fresh;
    steps[index] = { ...step, id: fresh };
    for (let later = index + 1; later < steps.length; later++) {
      const other = steps[later];
      if (isRecord(other)) steps[later] = renameInStep(other, step.id, fresh);
    }
  }
  return { steps, renamed };
}
