/**
 * Finding where a JSON value nests too deep.
 *
 * @module
 */

/**
 * Finds the first object or array nested deeper than `limit` levels below
 * the root (the root's members are level 1), without recursion, so that a
 * body of thousands of levels is measured rather than overflowing the stack
 * of whatever reads it next.
 *
 * @param root - a parsed JSON value.
 * @param limit - the deepest level allowed.
 * @returns the JSON pointer (`#/state/data/a/…`) of the first value too deep, or `undefined`.
 *
 * @example
 * ```ts
 * findDeepValue({ a: { b: {} } }, 1); // "#/a/b"
 * ```
 */
export function findDeepValue(root: unknown, limit: number): string | undefined {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value: root, pointer: "#", depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== "object" || item.value === null) continue;
    if (item.depth > limit) return item.pointer;
    for (const [key, child] of Object.entries(item.value)) {
      const segment = key.replaceAll("~", "~0").replaceAll("/", "~1");
      stack.push({ value: child, pointer: `${item.pointer}/${segment}`, depth: item.depth + 1 });
    }
  }
  return undefined;
}
