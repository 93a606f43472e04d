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
  // Each container's path is a chain of keys back to the root, so a pointer is built only for the value found.
  const stack: [value: unknown, depth: number, path: KeyPath | undefined][] = [[root, 0, undefined]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth, path] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > limit) {
      let pointer = "";
      for (let at = path; at !== undefined; at = at.parent)
        pointer = `/${at.key.replaceAll("~", "~0").replaceAll("/", "~1")}${pointer}`;
      return pointer;
    }
    for (const [key, child] of Object.entries(value))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1, { key, parent: path }]);
  }
  return undefined;
}

/** A key and the path of the container holding it. */
interface KeyPath {
  key: string;
  parent: KeyPath | undefined;
}
