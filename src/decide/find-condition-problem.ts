/**
 * Structural checking of conditions with messages a playbook author can act on.
 *
 * @module
 */
import { isRecord } from "../shared/is-record.ts";

/** Where inside a condition a problem is (a JSON pointer relative to it) and what it is. */
export interface ConditionProblem {
  pointer: string;
  message: string;
}

const presenceOperators = new Set(["present", "missing"]);
const orderOperators = new Set(["gt", "gte", "lt", "lte"]);
const operators = ["present", "missing", "eq", "neq", "in", "gt", "gte", "lt", "lte"];

/**
 * Finds the first structural problem in a condition (see `Condition` for the
 * language). Used by the condition schema so a bad condition is reported with
 * its exact location instead of a list of failed alternatives.
 *
 * @param value - a would-be condition, usually parsed JSON.
 * @param pointer - the JSON pointer of `value` inside the outermost condition.
 * @defaultValue pointer - `""` (the outermost condition itself).
 * @returns the first problem, or `undefined` when `value` is a well-formed condition.
 * @example
 * ```ts
 * findConditionProblem({ all: [{ path: "x", op: "in", value: 3 }] });
 * // { pointer: "/all/0/value", message: 'operator "in" needs an array "value"' }
 * ```
 */
export function findConditionProblem(value: unknown, pointer = ""): ConditionProblem | undefined {
  if (!isRecord(value)) return { pointer, message: "a condition must be an object" };
  const keys = Object.keys(value);
  for (const combinator of ["all", "any", "not"] as const) {
    if (!(combinator in value)) continue;
    if (keys.length !== 1) {
      return {
        pointer,
        message: `"${combinator}" must be the only key of its condition (found ${keys.map((key) => `"${key}"`).join(", ")})`,
      };
    }
    const inner = value[combinator];
    if (combinator === "not") return findConditionProblem(inner, `${pointer}/not`);
    if (!Array.isArray(inner))
      return { pointer: `${pointer}/${combinator}`, message: `"${combinator}" must be an array of conditions` };
    for (let index = 0; index < inner.length; index++) {
      const problem = findConditionProblem(inner[index], `${pointer}/${combinator}/${index}`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!("op" in value)) {
    return { pointer, message: 'a condition needs "op" (with "path") or one of "all", "any", "not"' };
  }
  const op = value.op;
  if (typeof op !== "string" || !operators.includes(op)) {
    return {
      pointer: `${pointer}/op`,
      message: `unknown operator ${JSON.stringify(op)}: use one of ${operators.join(", ")}`,
    };
  }
  for (const key of keys) {
    if (key !== "path" && key !== "op" && key !== "value") {
      return {
        pointer: `${pointer}/${key}`,
        message: `unexpected key "${key}" (a condition leaf has "path", "op" and "value")`,
      };
    }
  }
  if ("path" in value && typeof value.path !== "string") {
    return { pointer: `${pointer}/path`, message: '"path" must be a string' };
  }
  if (presenceOperators.has(op)) {
    return "value" in value ? { pointer: `${pointer}/value`, message: `operator "${op}" takes no "value"` } : undefined;
  }
  if (!("value" in value)) return { pointer, message: `operator "${op}" needs a "value"` };
  if (op === "in" && !Array.isArray(value.value)) {
    return { pointer: `${pointer}/value`, message: 'operator "in" needs an array "value"' };
  }
  if (orderOperators.has(op) && typeof value.value !== "number" && typeof value.value !== "string") {
    return { pointer: `${pointer}/value`, message: `operator "${op}" needs a number or string "value"` };
  }
  return undefined;
}
