/**
 * The interpreter of the condition language.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { Condition } from "./condition.ts";
import type { DecisionState } from "./decision-state.ts";
import { isPresent } from "./is-present.ts";
import { jsonEqual } from "./json-equal.ts";
import { resolvePath } from "./resolve-path.ts";

function compare(actual: unknown, op: "gt" | "gte" | "lt" | "lte", expected: number | string): boolean {
  if (typeof actual !== typeof expected || (typeof actual !== "number" && typeof actual !== "string")) return false;
  const left = actual as number | string;
  switch (op) {
    case "gt":
      return left > expected;
    case "gte":
      return left >= expected;
    case "lt":
      return left < expected;
    case "lte":
      return left <= expected;
  }
}

/**
 * Evaluates a condition against the state (see `Condition` for the language).
 * Pure interpretation — no `eval`, no code generation.
 *
 * @param condition - the condition.
 * @param state - the per-turn state.
 * @param defaultPath - the path of leaves that leave out `path` (a phase's `gate_field`).
 * @returns whether the condition holds.
 * @throws PlankitError `invalid-path` when a leaf's path is not a state path, or
 *   when a leaf has no path and there is no `defaultPath`.
 * @example
 * ```ts
 * evaluateCondition({ path: "budget", op: "gt", value: 100 }, { data: { trip: { budget: 900 } } }); // true
 * ```
 */
export function evaluateCondition(condition: Condition, state: DecisionState, defaultPath?: string): boolean {
  if ("all" in condition) return condition.all.every((inner) => evaluateCondition(inner, state, defaultPath));
  if ("any" in condition) return condition.any.some((inner) => evaluateCondition(inner, state, defaultPath));
  if ("not" in condition) return !evaluateCondition(condition.not, state, defaultPath);
  const path = condition.path ?? defaultPath;
  if (path === undefined) {
    throw new PlankitError(
      "invalid-path",
      `Condition ${JSON.stringify(condition)} has no "path" and there is no gate_field to test`,
    );
  }
  const resolved = resolvePath(state, path);
  const value = resolved.found ? resolved.value : undefined;
  switch (condition.op) {
    case "present":
      return isPresent(value);
    case "missing":
      return !isPresent(value);
    case "eq":
      return resolved.found && jsonEqual(value, condition.value);
    case "neq":
      return !resolved.found || !jsonEqual(value, condition.value);
    case "in":
      return resolved.found && condition.value.some((item) => jsonEqual(value, item));
    default:
      return resolved.found && compare(value, condition.op, condition.value);
  }
}
