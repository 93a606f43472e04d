/**
 * Finding nesting deeper than a plan's values may go.
 *
 * @module
 */

/** How deep a step may nest objects and arrays: as deep as the plan reader's JSON parser reads (`maxDepth`). */
export const MAX_STEP_DEPTH = 512;

/**
 * Where a value first nests objects and arrays deeper than `limit` levels
 * (the value itself is the first level). It walks without recursion, so a
 * value of any depth is measured rather than overflowing the stack, and
 * every later recursive walk of a step (normalizing, finding references,
 * checking arguments) stays within `limit`.
 *
 * @param value - a step as written.
 * @param limit - the deepest level allowed.
 * @returns the JSON Pointer to the first value too deep, its first four segments then `…`; or `undefined`.
 *
 * @example
 * ```ts
 * findTooDeep({ arguments: { a: [[1]] } }, 3); // "/arguments/a/0/…"
 * ```
 */
export function findTooDeep(value: unknown, limit: number): string | undefined {
  const nodes: { parent: number; key: string }[] = [];
  const stack: [item: unknown, depth: number, node: number][] = [[value, 1, -1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth, node] = next;
    if (typeof item !== "object" || item === null) continue;
    if (depth > limit) {
      const keys: string[] = [];
      for (let at = node; at >= 0; at = nodes[at]?.parent ?? -1) keys.push(nodes[at]?.key ?? "");
      const path = keys.reverse().map((key) => `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      return `${path.slice(0, 4).join("")}${path.length > 4 ? "/…" : ""}`;
    }
    for (const [key, child] of Object.entries(item)) {
      if (typeof child !== "object" || child === null) continue;
      nodes.push({ parent: node, key });
      stack.push([child, depth + 1, nodes.length - 1]);
    }
  }
  return undefined;
}
