/**
 * Short human-readable renderings of conditions for reasons and traces.
 *
 * @module
 */
import type { Condition } from "./condition.ts";

/**
 * Renders a condition as short text: `profile.name missing`,
 * `budget gt 100`, `all(a present, b missing)`.
 *
 * @param condition - the condition.
 * @param defaultPath - the path shown for leaves that leave out `path`.
 * @returns the rendering.
 * @example
 * ```ts
 * describeCondition({ path: "budget", op: "gt", value: 100 }); // "budget gt 100"
 * ```
 */
export function describeCondition(condition: Condition, defaultPath?: string): string {
  if ("all" in condition)
    return `all(${condition.all.map((inner) => describeCondition(inner, defaultPath)).join(", ")})`;
  if ("any" in condition)
    return `any(${condition.any.map((inner) => describeCondition(inner, defaultPath)).join(", ")})`;
  if ("not" in condition) return `not(${describeCondition(condition.not, defaultPath)})`;
  const path = condition.path ?? defaultPath ?? "<gate_field>";
  return "value" in condition
    ? `${path} ${condition.op} ${JSON.stringify(condition.value)}`
    : `${path} ${condition.op}`;
}
