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
 * cannot overflow the stack, and a cycle of more than six steps is written
 * short, with its length.
 *
 * @param table - the run's steps.
 * @returns each step on a cycle found, with the cycle written from it back to it (`s1 → s2 → s1`).
 *
 * @example
 * ```ts
 * findDependencyCycles(table).get("s1"); // "s1 → s2 → s1"
 * ```
 */
export function findDependencyCycles(table: StepTable): Map<string, string> {
  const cycles = new Map<string, string>();
  const done = new Set<string>();
  for (const start of table.order) {
    if (start.status !== "pending" || done.has(start.step.id)) continue;
    const path: StepEntry[] = [start];
    const next = [0];
    const onPath = new Map([[start.step.id, 0]]);
    while (path.length > 0) {
      const top = path.length - 1;
      const entry = path[top] as StepEntry;
      const id = entry.deps[next[top] ?? 0];
      next[top] = (next[top] ?? 0) + 1;
      if (id === undefined) {
        done.add(entry.step.id);
        onPath.delete(entry.step.id);
        path.pop();
        next.pop();
        continue;
      }
      const dependency = table.get(id);
      if (dependency?.status !== "pending" || done.has(id)) continue;
      const at = onPath.get(id);
      if (at === undefined) {
        onPath.set(id, path.length);
        path.push(dependency);
        next.push(0);
        continue;
      }
      const members = path.slice(at).map((member) => member.step.id);
      const { length } = members;
      members.forEach((member, index) => {
        if (cycles.has(member)) return;
        const shown = Array.from({ length: Math.min(length, 6) }, (_, step) => members[(index + step) % length]);
        cycles.set(member, `${shown.join(" → ")}${length > 6 ? ` → … → ${member} (${length} steps)` : ` → ${member}`}`);
      });
    }
  }
  return cycles;
}
