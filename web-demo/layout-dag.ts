/**
 * Where each step of a plan goes in the demo's graph.
 *
 * @module
 */

/** A step to place: its id and the ids it depends on. */
export interface DagInput {
  id: string;
  dependsOn: readonly string[];
}

/** A placed step. */
export interface DagNode {
  id: string;
  /** The layer: 0 for steps that need nothing, else one more than the deepest dependency. */
  layer: number;
  /** The position within the layer, in plan order. */
  slot: number;
  /** Centre of the node, in graph units. */
  x: number;
  y: number;
}

/** An arrow from a dependency to the step that uses it. */
export interface DagEdge {
  from: string;
  to: string;
}

/** The placed graph. */
export interface DagLayout {
  nodes: DagNode[];
  edges: DagEdge[];
  width: number;
  height: number;
}

/** Sizes of the layout, in graph units. */
export interface DagSizes {
  nodeWidth: number;
  nodeHeight: number;
  gapX: number;
  gapY: number;
}

const defaultSizes: DagSizes = { nodeWidth: 168, nodeHeight: 64, gapX: 16, gapY: 36 };

/**
 * Lays a plan out in layers, top to bottom: a step sits one layer below the
 * deepest step it depends on, so independent steps share a layer (they can
 * run in parallel) and arrows always point down. Steps keep their plan
 * order within a layer. Dependencies on unknown ids are ignored. Adding a
 * step never moves the steps before it to another layer, so the graph grows
 * steadily while the plan streams in.
 *
 * @param steps - the steps in plan order (a step depends only on earlier ones).
 * @param sizes - node size and gaps.
 * @returns nodes with positions, edges, and the graph's size.
 *
 * @example
 * ```ts
 * layoutDag([{ id: "s1", dependsOn: [] }, { id: "s2", dependsOn: [] }, { id: "s3", dependsOn: ["s1", "s2"] }]).nodes.map((node) => node.layer); // [0, 0, 1]
 * ```
 */
export function layoutDag(steps: readonly DagInput[], sizes: Partial<DagSizes> = {}): DagLayout {
  const { nodeWidth, nodeHeight, gapX, gapY } = { ...defaultSizes, ...sizes };
  const layers = new Map<string, number>();
  const counts: number[] = [];
  const placed: { id: string; layer: number; slot: number }[] = [];
  const edges: DagEdge[] = [];
  for (const step of steps) {
    if (layers.has(step.id)) continue;
    let layer = 0;
    for (const dependency of new Set(step.dependsOn)) {
      const above = layers.get(dependency);
      if (above === undefined) continue;
      layer = Math.max(layer, above + 1);
      edges.push({ from: dependency, to: step.id });
    }
    layers.set(step.id, layer);
    const slot = counts[layer] ?? 0;
    counts[layer] = slot + 1;
    placed.push({ id: step.id, layer, slot });
  }
  const widest = Math.max(1, ...counts.map((count) => count ?? 0));
  const width = widest * nodeWidth + (widest - 1) * gapX;
  const height = counts.length === 0 ? 0 : counts.length * nodeHeight + (counts.length - 1) * gapY;
  const nodes = placed.map(({ id, layer, slot }) => {
    const inLayer = counts[layer] ?? 1;
    const rowWidth = inLayer * nodeWidth + (inLayer - 1) * gapX;
    return {
      id,
      layer,
      slot,
      x: (width - rowWidth) / 2 + slot * (nodeWidth + gapX) + nodeWidth / 2,
      y: layer * (nodeHeight + gapY) + nodeHeight / 2,
    };
  });
  return { nodes, edges, width, height };
}
