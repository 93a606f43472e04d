import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { findDependencyCycles } from "../../../src/runtime/run/find-dependency-cycles.ts";
import { StepTable } from "../../../src/runtime/run/step-table.ts";

/** A table of steps `s0…`, each referencing the ones `edges` lists, some of them already succeeded. */
function tableOf(edges: readonly (readonly number[])[], succeeded: readonly boolean[] = []): StepTable {
  const table = new StepTable({});
  const source = { kind: "plan", attempt: 1, state: "clean" } as const;
  edges.forEach((targets, index) => {
    const args = Object.fromEntries(targets.map((target, position) => [`a${position}`, `{{s${target}.x}}`]));
    const entry = table.add({ id: `s${index}`, type: "tool", name: "t", arguments: args } as PlanStep, source);
    if (succeeded[index] === true) entry.status = "succeeded";
  });
  return table;
}

/** Whether a pending step reaches itself through pending steps. */
function onCycle(table: StepTable, id: string): boolean {
  const seen = new Set<string>();
  const stack = [...(table.get(id)?.deps ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (table.get(next)?.status !== "pending" || seen.has(next)) continue;
    if (next === id) return true;
    seen.add(next);
    stack.push(...(table.get(next)?.deps ?? []));
  }
  return false;
}

describe("findDependencyCycles", () => {
  it("gives each step of a cycle the cycle, and only pending steps make one", () => {
    expect([...findDependencyCycles(tableOf([[1], [2], [0], [0]]))]).toEqual([
      ["s0", "s0 → s1 → s2 → s0"],
      ["s1", "s0 → s1 → s2 → s0"],
      ["s2", "s0 → s1 → s2 → s0"],
    ]);
    expect([...findDependencyCycles(tableOf([[0], []]))]).toEqual([["s0", "s0 → s0"]]);
    expect(findDependencyCycles(tableOf([[1], [2], [3], [4], [5], [0]])).get("s2")).toBe(
      "s0 → s1 → s2 → s3 → s4 → s5 → s0",
    );
    expect(findDependencyCycles(tableOf([[1], [2], [3], [4], [5], [6], [0]])).get("s2")).toBe(
      "s0 → s1 → s2 → s3 → s4 → s5 → … → s0 (7 steps)",
    );
    expect(findDependencyCycles(tableOf([[1], [0]], [false, true])).size).toBe(0);
    expect(findDependencyCycles(tableOf([[1], [2], []])).size).toBe(0);
    // A reference to no step is no cycle.
    expect(findDependencyCycles(tableOf([[5]])).size).toBe(0);
  });

  it("finds a cycle exactly when there is one; every cycle it names is real; a long chain does not overflow", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((size) =>
          fc.tuple(
            fc.array(fc.uniqueArray(fc.integer({ min: 0, max: size - 1 }), { maxLength: 3 }), {
              minLength: size,
              maxLength: size,
            }),
            fc.array(fc.boolean(), { minLength: size, maxLength: size }),
          ),
        ),
        ([edges, succeeded]) => {
          const table = tableOf(edges, succeeded);
          const cycles = findDependencyCycles(table);
          const anyCycle = table.order.some((entry) => entry.status === "pending" && onCycle(table, entry.step.id));
          expect(cycles.size > 0).toBe(anyCycle);
          for (const [id, cycle] of cycles) {
            const ids = cycle.split(" → ");
            expect(ids.slice(0, -1)).toContain(id);
            // Six steps at most: every cycle is written whole.
            expect(ids.length).toBeLessThanOrEqual(7);
            expect(ids.at(-1)).toBe(ids[0]);
            for (let index = 1; index < ids.length; index++) {
              expect(table.get(ids[index - 1] as string)?.deps).toContain(ids[index]);
              expect(table.get(ids[index] as string)?.status).toBe("pending");
            }
          }
        },
      ),
      { numRuns: 400 },
    );
    const chain = Array.from({ length: 20_000 }, (_, index) => [index + 1]);
    chain[chain.length - 1] = [0];
    const long = findDependencyCycles(tableOf(chain));
    expect(long.size).toBe(20_000);
    expect(long.get("s0")).toBe("s0 → s1 → s2 → s3 → s4 → s5 → … → s0 (20000 steps)");
    expect(long.get("s19999")).toBe(long.get("s0"));
  });
});
