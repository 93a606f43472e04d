/**
 * A layered layout of a plan's steps that fits a given width.
 *
 * @module
 */

/** A step to place: its id and the ids it depends on (all placed before it). */
export interface GraphInput {
  id: string;
  dependsOn: readonly string[];
}

/** A placed step: its box. */
export interface GraphNode {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Its layer: 0 for steps that depend on none, else one more than its deepest dependency. */
  layer: number;
  /** Its row; a layer wider than the view takes several. */
  row: number;
}

/** A dependency drawn as a polyline from the bottom of `from` to the top of `to`. */
export interface GraphEdge {
  from: string;
  to: string;
  /** Its corners, first on `from`'s bottom side, last on `to`'s top side. */
  points: [number, number][];
}

/** The layout. */
export interface GraphLayout {
  width: number;
  height: number;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Sizes of the layout, in CSS pixels. */
export interface GraphLayoutOptions {
  /** @defaultValue 44 */
  nodeHeight?: number;
  /** The widest a node gets. @defaultValue 184 */
  maxNodeWidth?: number;
  /** The narrowest a node gets before a layer wraps to another row (smaller only when the view is). @defaultValue 120 */
  minNodeWidth?: number;
  /** Space around the graph; edges may pass through its left part. @defaultValue 12 */
  margin?: number;
  /** Space between nodes of a row. @defaultValue 20 */
  columnGap?: number;
  /** Space between rows, where edges turn. @defaultValue 32 */
  rowGap?: number;
}

/**
 * Lays a plan out top to bottom: each step one layer below its deepest
 * dependency, a layer wider than `width` wrapped into several rows, each row
 * centred. Edges run in the gaps between rows and, past intermediate rows,
 * in a free vertical lane between (or beside) their nodes, so no edge
 * crosses a node and nothing is wider than `width` (down to one node per row).
 * Linear in steps and dependencies, apart from the lane search, which looks
 * at the rows an edge passes.
 *
 * @param steps - the steps in plan order; dependencies name earlier steps (others are ignored).
 * @param width - the width available.
 * @param options - sizes.
 * @returns the boxes and edges.
 *
 * @example
 * ```ts
 * const layout = layoutPlanGraph([{ id: "s1", dependsOn: [] }, { id: "s2", dependsOn: ["s1"] }], 375);
 * layout.nodes[1]!.y > layout.nodes[0]!.y; // true
 * ```
 */
export function layoutPlanGraph(
  steps: readonly GraphInput[],
  width: number,
  options: GraphLayoutOptions = {},
): GraphLayout {
  const nodeHeight = options.nodeHeight ?? 44;
  const margin = options.margin ?? 12;
  const columnGap = options.columnGap ?? 20;
  const rowGap = options.rowGap ?? 32;
  const available = Math.max(1, width - 2 * margin);
  const layerOf = new Map<string, number>();
  const layers: GraphInput[][] = [];
  for (const step of steps) {
    if (layerOf.has(step.id)) continue;
    let layer = 0;
    for (const id of step.dependsOn) {
      const below = layerOf.get(id);
      if (below !== undefined) layer = Math.max(layer, below + 1);
    }
    layerOf.set(step.id, layer);
    const row = layers[layer] ?? [];
    layers[layer] = row;
    row.push(step);
  }
  const widest = Math.max(1, ...layers.map((layer) => layer.length));
  const minWidth = Math.min(options.minNodeWidth ?? 120, available);
  const perRow = Math.max(1, Math.min(widest, Math.floor((available + columnGap) / (minWidth + columnGap))));
  const nodeWidth = Math.min(options.maxNodeWidth ?? 184, (available - (perRow - 1) * columnGap) / perRow);

  const nodes = new Map<string, GraphNode>();
  const rows: GraphNode[][] = [];
  layers.forEach((layer, layerIndex) => {
    // Under the mean position of what they depend on, so edges cross less.
    const centre = (step: GraphInput): number => {
      const xs = step.dependsOn.map((id) => nodes.get(id)?.x).filter((x): x is number => x !== undefined);
      return xs.length === 0 ? 0 : xs.reduce((sum, x) => sum + x, 0) / xs.length;
    };
    const ordered = layer
      .map((step, index) => ({ step, index, at: centre(step) }))
      .sort((a, b) => a.at - b.at || a.index - b.index);
    for (let start = 0; start < ordered.length; start += perRow) {
      const members = ordered.slice(start, start + perRow);
      const row = rows.length;
      const total = members.length * nodeWidth + (members.length - 1) * columnGap;
      const left = margin + (available - total) / 2;
      const placed = members.map(({ step }, column): GraphNode => {
        const node = {
          id: step.id,
          x: left + column * (nodeWidth + columnGap),
          y: margin + row * (nodeHeight + rowGap),
          width: nodeWidth,
          height: nodeHeight,
          layer: layerIndex,
          row,
        };
        nodes.set(step.id, node);
        return node;
      });
      rows.push(placed);
    }
  });

  const edges: GraphEdge[] = [];
  for (const step of steps) {
    const target = nodes.get(step.id);
    if (target === undefined) continue;
    for (const id of new Set(step.dependsOn)) {
      const source = nodes.get(id);
      if (source === undefined || source.row >= target.row) continue;
      const sx = source.x + source.width / 2;
      const tx = target.x + target.width / 2;
      // Each node of a row turns at its own height in the gap, so lines from different nodes do not run on top of each other.
      const below = source.y + source.height + rowGap * turnAt(source, rows);
      const above = target.y - rowGap * (1 - turnAt(target, rows));
      if (target.row === source.row + 1) {
        edges.push({
          from: id,
          to: step.id,
          points: [
            [sx, source.y + source.height],
            [sx, below],
            [tx, below],
            [tx, target.y],
          ],
        });
        continue;
      }
      const lane = findLane(rows.slice(source.row + 1, target.row), [tx, sx], margin, width, columnGap);
      edges.push({
        from: id,
        to: step.id,
        points: [
          [sx, source.y + source.height],
          [sx, below],
          [lane, below],
          [lane, above],
          [tx, above],
          [tx, target.y],
        ],
      });
    }
  }
  const height = rows.length === 0 ? 0 : margin * 2 + rows.length * nodeHeight + (rows.length - 1) * rowGap;
  return { width, height, nodes: [...nodes.values()], edges };
}

/**
 * Where in the gap below its row a node's lines turn, as a fraction of the
 * gap strictly between 0 and 1: spread by the node's place in its row.
 *
 * @param node - the node.
 * @param rows - the rows.
 * @returns the fraction.
 */
function turnAt(node: GraphNode, rows: readonly GraphNode[][]): number {
  const row = rows[node.row] ?? [node];
  return (row.indexOf(node) + 1) / (row.length + 1);
}

/**
 * An x where a vertical line passes every row without touching a node:
 * the free candidate nearest the preferred positions.
 *
 * @param rows - the rows the line crosses.
 * @param preferred - where it would best run.
 * @param margin - the graph's margin, free on both sides.
 * @param width - the graph's width.
 * @param columnGap - the gap between nodes.
 * @returns the x.
 */
function findLane(
  rows: readonly GraphNode[][],
  preferred: readonly number[],
  margin: number,
  width: number,
  columnGap: number,
): number {
  const clearance = Math.min(4, columnGap / 4);
  const free = (x: number): boolean =>
    rows.every((row) => row.every((node) => x < node.x - clearance || x > node.x + node.width + clearance));
  const candidates = [...preferred, margin / 2, width - margin / 2];
  for (const row of rows) {
    for (const node of row) candidates.push(node.x - columnGap / 2, node.x + node.width + columnGap / 2);
  }
  const cost = (x: number): number => preferred.reduce((sum, p) => sum + Math.abs(x - p), 0);
  return candidates.filter((x) => x > 0 && x < width && free(x)).sort((a, b) => cost(a) - cost(b))[0] ?? margin / 2;
}
