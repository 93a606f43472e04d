/**
 * A person's answer to an approval request.
 *
 * @module
 */

/**
 * The decision on one step that waits for approval, passed to
 * `RunHandle.approve`:
 *
 * - `{ stepId, approved: true }` — run it as shown;
 * - `{ stepId, approved: true, arguments }` — run it with these arguments
 *   instead (the whole object; validated against the tool's input schema
 *   again; references may only name steps it already depends on);
 * - `{ stepId, approved: false, reason }` — skip it (code `denied`) and the
 *   steps that depend on it; with `replan: true` the planner is asked for a
 *   patch for what is left, as after a failure.
 *
 * @example
 * ```ts
 * run.approve([{ stepId: "s2", approved: true }, { stepId: "s3", approved: false, reason: "not this week" }]);
 * ```
 */
export type ApprovalDecision =
  | { stepId: string; approved: true; arguments?: Record<string, unknown> }
  | { stepId: string; approved: false; reason?: string; replan?: boolean };
