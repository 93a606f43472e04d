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
interface DagNode {
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
interface DagEdge {
  from: string;
  to: string;
  /**
   * Where the arrow goes: from the bottom centre of `from` to the top
   * centre of `to`. An arrow that skips layers passes each layer in
   * between through a gap between its nodes (two points per layer, at its
   * top and bottom), so it never runs under a node.
   */
  points: { x: number; y: number }[];
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
      edges.push({ from: dependency, to: step.id, points: [] });
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
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const rows: number[][] = [];
  for (const node of nodes) {
    rows[node.layer] ??= [];
    rows[node.layer]?.push(node.x);
  }
  for (const row of rows) row?.sort((a, b) => a - b);
  for (const edge of edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (from === undefined || to === undefined) continue;
    const points = [{ x: from.x, y: from.y + nodeHeight / 2 }];
    for (let layer = from.layer + 1; layer < to.layer; layer++) {
      const share = (layer - from.layer) / (to.layer - from.layer);
      const x = nearestGap(rows[layer] ?? [], from.x + (to.x - from.x) * share, nodeWidth, gapX);
      const top = layer * (nodeHeight + gapY);
      points.push({ x, y: top }, { x, y: top + nodeHeight });
    }
    points.push({ x: to.x, y: to.y - nodeHeight / 2 });
    edge.points = points;
  }
  return { nodes, edges, width, height };
}

/**
 * The x of the gap in a row of nodes nearest to `wanted`: between two
 * nodes, or just outside the row.
 *
 * @param row - the centres of the row's nodes, sorted.
 * @param wanted - where the arrow would like to pass.
 * @param nodeWidth - the width of a node.
 * @param gapX - the gap between nodes.
 * @returns the x.
 */
function nearestGap(row: readonly number[], wanted: number, nodeWidth: number, gapX: number): number {
  const first = row[0];
  const last = row.at(-1);
  if (first === undefined || last === undefined) return wanted;
  const gaps = [first - nodeWidth / 2 - gapX / 2, last + nodeWidth / 2 + gapX / 2];
  for (let index = 1; index < row.length; index++) gaps.push(((row[index - 1] ?? 0) + (row[index] ?? 0)) / 2);
  // Nothing in the way: keep the straight line.
  if (row.every((x) => Math.abs(x - wanted) >= nodeWidth / 2 + 2)) return wanted;
  return gaps.reduce((best, gap) => (Math.abs(gap - wanted) < Math.abs(best - wanted) ? gap : best));
}
