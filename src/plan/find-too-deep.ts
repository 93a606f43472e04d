/**
 * Finding nesting deeper than a plan's values may go.
 *
 * @module
 */
import { findDeepValue } from "../json/find-deep-value.ts";

/** How deep a step may nest objects and arrays: as deep as the plan reader's JSON parser reads (`maxDepth`). */
export const MAX_STEP_DEPTH = 512;

/**
 * Where a value first nests objects and arrays deeper than `limit` levels
 * (the value itself is the first level), measured without recursion (see
 * `findDeepValue`), so every later recursive walk of a step (normalizing,
 * finding references, checking arguments) stays within `limit`.
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
  const pointer = findDeepValue(value, limit - 1);
  if (pointer === undefined) return undefined;
  const segments = pointer.split("/").slice(1);
  return `/${segments.slice(0, 4).join("/")}${segments.length > 4 ? "/…" : ""}`;
}
