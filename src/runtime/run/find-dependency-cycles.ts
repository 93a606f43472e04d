/**
 * The cycles among steps that wait for one another.
 *
 * @module
 */
import type { StepEntry, StepTable } from "./step-table.ts";

/**
 * Finds the steps that wait, through their references, for themselves: a
 * plan a validator checked has none (a step may reference only earlier
 * ones), but a planner of one's own may write `s1` ↔ `s2`. Only pending
 * steps are followed. The walk is iterative and linear, so a long chain
 * cannot overflow the stack; a cycle of more than six steps is written
 * short, with its length.
 *
 * @param table - the run's steps.
 * @returns each step on a cycle found, with the cycle, written from its first step back to it (`s1 → s2 → s1`).
 *
 * @example
 * ```ts
 * findDependencyCycles(table).get("s2"); // "s1 → s2 → s1"
 * ```
 */
export function findDependencyCycles(table: StepTable): Map<string, string> {
  const cycles = new Map<string, string>();
  const done = new Set<StepEntry>();
  for (const start of table.order) {
    const path: StepEntry[] = [];
    const next: number[] = [];
    const onPath = new Map<StepEntry, number>();
    let entry: StepEntry | undefined = start;
    while (entry !== undefined || path.length > 0) {
      if (entry !== undefined) {
        if (entry.status !== "pending" || done.has(entry)) entry = undefined;
        else if (onPath.has(entry)) {
          const members = path.slice(onPath.get(entry)).map((member) => member.step.id);
          const shown = members.length > 6 ? [...members.slice(0, 6), "…"] : members;
          const text = `${[...shown, members[0]].join(" → ")}${members.length > 6 ? ` (${members.length} steps)` : ""}`;
          for (const id of members) if (!cycles.has(id)) cycles.set(id, text);
          entry = undefined;
        } else {
          onPath.set(entry, path.length);
          path.push(entry);
          next.push(0);
          entry = undefined;
        }
        continue;
      }
      const top = path.length - 1;
      const current = path[top] as StepEntry;
      const id = current.deps[next[top] ?? 0];
      next[top] = (next[top] ?? 0) + 1;
      if (id !== undefined) entry = table.get(id);
      else {
        done.add(current);
        onPath.delete(current);
        path.pop();
        next.pop();
      }
    }
  }
  return cycles;
}
