/**
 * The diagnostic type shared by normalization and validation.
 *
 * @module
 */

/**
 * The stable diagnostic codes.
 *
 * - `invalid-step`: the step is malformed (wrong shape, bad id, a reply that is
 *   not last, a step after the reply, a cycle in a sketch).
 * - `unknown-tool`: the tool is not in the catalog.
 * - `missing-argument`: a required argument (at any depth) is absent.
 * - `invalid-argument`: an argument violates the tool's JSON Schema.
 * - `unknown-reference`: a reference or `dependsOn` names no step, a step that
 *   was rejected, or a path the referenced tool's `outputSchema` does not declare.
 * - `forward-reference`: a reference names the step itself or a later step.
 * - `duplicate-id`: the id was already used by an earlier step.
 * - `too-many-steps`: the step is past `maxSteps`.
 * - `empty-plan`: the plan has no steps.
 * - `no-reply`: the plan does not end with a reply step.
 */
export type PlanIssueCode =
  | "invalid-step"
  | "unknown-tool"
  | "missing-argument"
  | "invalid-argument"
  | "unknown-reference"
  | "forward-reference"
  | "duplicate-id"
  | "too-many-steps"
  | "empty-plan"
  | "no-reply";

/**
 * One problem found in a plan.
 *
 * `index` is the step's position in the plan as given (a sketch after its
 * topological ordering), or `-1` when the problem concerns no single step.
 * `path` is a JSON Pointer: into the normalized plan `{ "steps": [...] }` for
 * step problems (`/steps/2/arguments/query`), into the raw sketch for sketch
 * structure (`/edges/3`).
 *
 * @example
 * ```ts
 * const issue: PlanIssue = {
 *   code: "unknown-reference", index: 2, stepId: "s3", path: "/steps/2/arguments/query",
 *   message: 'Step "s3" references unknown step "s9" (/steps/2/arguments/query)',
 * };
 * ```
 */
export interface PlanIssue {
  /** What kind of problem. */
  code: PlanIssueCode;
  /** The step's position in the plan, or `-1`. */
  index: number;
  /** The step's id, when it has one. */
  stepId?: string;
  /** A JSON Pointer to the offending value. */
  path: string;
  /** What is wrong, where, and which value. */
  message: string;
}
