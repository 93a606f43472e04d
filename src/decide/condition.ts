/**
 * The condition language of priority rules and phase gates.
 *
 * @module
 */
import * as v from "valibot";
import { findConditionProblem } from "./find-condition-problem.ts";

/** Operators that only look at whether the path is present. */
export type PresenceOperator = "present" | "missing";
/** Operators that compare the path's value with `value`. */
export type ComparisonOperator = "eq" | "neq" | "in" | "gt" | "gte" | "lt" | "lte";

/**
 * A condition over state paths. Data, not code: it is interpreted by
 * `evaluateCondition`, never compiled, so it runs where `eval` is forbidden
 * (Cloudflare Workers) and a playbook cannot run arbitrary code.
 *
 * Leaves test one path:
 * - `{ path, op: "present" }` / `{ path, op: "missing" }` — see `isPresent`.
 * - `{ path, op: "eq" | "neq", value }` — JSON deep equality; a missing path is `neq` everything.
 * - `{ path, op: "in", value: [...] }` — deep-equal to one element.
 * - `{ path, op: "gt" | "gte" | "lt" | "lte", value }` — numbers with numbers, strings with
 *   strings; any other pairing is false.
 *
 * Combinators: `{ all: [...] }` (true when empty), `{ any: [...] }` (false when empty),
 * `{ not: condition }`.
 *
 * Inside a phase's `gate_check` a leaf may leave out `path`: it then tests the
 * phase's `gate_field`.
 *
 * @example
 * ```ts
 * const when: Condition = { all: [{ path: "profile.name", op: "present" }, { path: "budget", op: "missing" }] };
 * ```
 */
export type Condition =
  | { path?: string; op: PresenceOperator }
  | { path?: string; op: "eq" | "neq"; value: unknown }
  | { path?: string; op: "in"; value: readonly unknown[] }
  | { path?: string; op: "gt" | "gte" | "lt" | "lte"; value: number | string }
  | { all: readonly Condition[] }
  | { any: readonly Condition[] }
  | { not: Condition };

/**
 * Schema of {@link Condition}, for conditions that arrive as JSON. A failure
 * names the exact spot inside the condition (`at /all/0/value: …`).
 *
 * @example
 * ```ts
 * v.parse(ConditionSchema, { path: "budget", op: "gt", value: 100 });
 * ```
 */
export const ConditionSchema: v.GenericSchema<Condition> = v.custom<Condition>(
  (input) => findConditionProblem(input) === undefined,
  (issue) => {
    const problem = findConditionProblem(issue.input);
    if (!problem) return "Invalid condition";
    return problem.pointer === "" ? problem.message : `at ${problem.pointer}: ${problem.message}`;
  },
);
