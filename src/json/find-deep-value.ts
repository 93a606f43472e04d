/**
 * Finding where a JSON value nests too deep.
 *
 * @module
 */

/**
 * Finds the first object or array nested deeper than `limit` levels below
 * the root (the root's members are level 1). It walks without recursion, so
 * a value of any depth is measured rather than overflowing the stack of
 * whatever would walk it next, and the work is linear in the value's size.
 *
 * @param root - a JSON value.
 * @param limit - the deepest level allowed.
 * @returns the JSON Pointer of the first value too deep (`/a/0/b`, `""` for the root), or `undefined`.
 *
 * @example
 * ```ts
 * findDeepValue({ a: { b: {} } }, 1); // "/a/b"
 * ```
 */
export function findDeepValue(root: unknown, limit: number): string | undefined {
  // Each container's key and its parent's index here, so a pointer is built only for the value found.
  const nodes: { parent: number; key: string }[] = [];
  const stack: [value: unknown, depth: number, node: number][] = [[root, 0, -1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth, node] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > limit) {
      let pointer = "";
      for (let at = node; at >= 0; at = nodes[at]?.parent ?? -1)
        pointer = `/${(nodes[at]?.key ?? "").replaceAll("~", "~0").replaceAll("/", "~1")}${pointer}`;
      return pointer;
    }
    for (const [key, child] of Object.entries(value)) {
      if (typeof child !== "object" || child === null) continue;
      nodes.push({ parent: node, key });
      stack.push([child, depth + 1, nodes.length - 1]);
    }
  }
  return undefined;
}
