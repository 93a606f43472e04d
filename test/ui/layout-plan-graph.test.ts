import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GraphInput, layoutPlanGraph } from "../../src/ui/layout-plan-graph.ts";
import { layoutProblems } from "./layout-invariants.ts";

/** Plans of up to 40 steps, each depending on up to three earlier ones. */
const plans = fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 40 }).map((picks) =>
  picks.map(
    (pick, index): GraphInput => ({
      id: `s${index + 1}`,
      dependsOn: index === 0 ? [] : pick.map((n) => `s${(n % index) + 1}`),
    }),
  ),
);

describe("layoutPlanGraph", () => {
  it("for any plan and width: no overlap, nothing wider than the view, edges from bottom to top around every node", () => {
    fc.assert(
      fc.property(plans, fc.integer({ min: 120, max: 1600 }), (steps, width) => {
        const layout = layoutPlanGraph(steps, width);
        expect(layout.nodes).toHaveLength(steps.length);
        expect(layoutProblems(layout.nodes, layout.edges, width)).toEqual([]);
        const edgeCount = steps.reduce((sum, step) => sum + new Set(step.dependsOn).size, 0);
        expect(layout.edges).toHaveLength(edgeCount);
      }),
      { numRuns: 300 },
    );
  });

  it("puts each step below its deepest dependency and wraps a wide layer at a phone's width", () => {
    const steps: GraphInput[] = [
      { id: "s1", dependsOn: [] },
      ...["s2", "s3", "s4", "s5"].map((id) => ({ id, dependsOn: ["s1"] })),
      { id: "s6", dependsOn: ["s2", "s5"] },
    ];
    const layout = layoutPlanGraph(steps, 375);
    const at = (id: string) => layout.nodes.find((node) => node.id === id);
    expect(layout.nodes.map((node) => node.layer)).toEqual([0, 1, 1, 1, 1, 2]);
    expect(new Set(layout.nodes.filter((node) => node.layer === 1).map((node) => node.row)).size).toBe(2);
    expect(at("s6")!.row).toBeGreaterThan(Math.max(at("s2")!.row, at("s5")!.row));
    expect(layout.width).toBe(375);
    // The edge from s2 (first row of layer 1) to s6 passes the second row of layer 1 in a lane.
    expect(layout.edges.find((edge) => edge.from === "s2" && edge.to === "s6")!.points).toHaveLength(6);
  });

  it("draws nothing for no steps", () => {
    expect(layoutPlanGraph([], 500)).toEqual({ width: 500, height: 0, nodes: [], edges: [] });
  });
});
