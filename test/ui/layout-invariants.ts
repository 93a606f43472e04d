/**
 * Invariants of a drawn plan graph, checked on the layout and on the rendered SVG.
 *
 * @module
 */

/** A box. */
export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An edge's corners and what it joins. */
export interface Polyline {
  from: string;
  to: string;
  points: [number, number][];
}

const epsilon = 0.5;

/**
 * Whether a horizontal or vertical segment passes through a box's inside.
 *
 * @param a - one end.
 * @param b - the other end.
 * @param box - the box.
 * @returns `true` when it does.
 */
function crosses(a: [number, number], b: [number, number], box: Box): boolean {
  const [x1, x2] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
  const [y1, y2] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  return (
    x2 > box.x + epsilon &&
    x1 < box.x + box.width - epsilon &&
    y2 > box.y + epsilon &&
    y1 < box.y + box.height - epsilon
  );
}

/**
 * Lists what breaks the layout's promises: overlapping boxes, anything
 * outside `[0, width]`, an edge that does not start on its source's bottom
 * side or end on its target's top side, a diagonal segment, or a segment
 * through a box.
 *
 * @param boxes - the nodes.
 * @param edges - the edges.
 * @param width - the width available.
 * @returns the problems, in words; empty when all hold.
 */
export function layoutProblems(boxes: readonly Box[], edges: readonly Polyline[], width: number): string[] {
  const problems: string[] = [];
  const byId = new Map(boxes.map((box) => [box.id, box]));
  for (const [index, box] of boxes.entries()) {
    if (box.x < -epsilon || box.x + box.width > width + epsilon)
      problems.push(`node ${box.id} spans ${box.x}..${box.x + box.width}, outside 0..${width}`);
    for (const other of boxes.slice(index + 1)) {
      if (
        box.x < other.x + other.width &&
        other.x < box.x + box.width &&
        box.y < other.y + other.height &&
        other.y < box.y + box.height
      )
        problems.push(`nodes ${box.id} and ${other.id} overlap`);
    }
  }
  for (const edge of edges) {
    const source = byId.get(edge.from);
    const target = byId.get(edge.to);
    const first = edge.points[0];
    const last = edge.points.at(-1);
    if (source === undefined || target === undefined || first === undefined || last === undefined) {
      problems.push(`edge ${edge.from}→${edge.to} joins a missing node or has no points`);
      continue;
    }
    if (
      Math.abs(first[1] - (source.y + source.height)) > epsilon ||
      first[0] < source.x - epsilon ||
      first[0] > source.x + source.width + epsilon
    )
      problems.push(`edge ${edge.from}→${edge.to} does not start on ${edge.from}'s bottom side`);
    if (
      Math.abs(last[1] - target.y) > epsilon ||
      last[0] < target.x - epsilon ||
      last[0] > target.x + target.width + epsilon
    )
      problems.push(`edge ${edge.from}→${edge.to} does not end on ${edge.to}'s top side`);
    for (let index = 1; index < edge.points.length; index++) {
      const a = edge.points[index - 1] as [number, number];
      const b = edge.points[index] as [number, number];
      if (Math.abs(a[0] - b[0]) > epsilon && Math.abs(a[1] - b[1]) > epsilon)
        problems.push(`edge ${edge.from}→${edge.to} has a diagonal segment`);
      if (Math.min(a[0], b[0]) < -epsilon || Math.max(a[0], b[0]) > width + epsilon)
        problems.push(`edge ${edge.from}→${edge.to} leaves 0..${width}`);
      for (const box of boxes)
        if (crosses(a, b, box)) problems.push(`edge ${edge.from}→${edge.to} crosses node ${box.id}`);
    }
  }
  return problems;
}
