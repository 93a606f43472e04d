/**
 * Where a run's steps come from.
 *
 * @module
 */

/**
 * One source of steps: the first plan (with its repair), or one re-plan
 * patch. Side-effecting steps wait until their source `ended` cleanly.
 * Other kinds of source (a model's native tool-call turn, say) fit the same
 * shape.
 *
 * @example
 * ```ts
 * const plan: StepSource = { kind: "plan", attempt: 1, state: "streaming" };
 * ```
 */
export interface StepSource {
  /** What wrote the steps. */
  readonly kind: "plan" | "replan";
  /** 1 for the plan; the re-plan number for a patch. */
  readonly attempt: number;
  /** `streaming` while steps may still arrive; then `clean` (finished normally and validated) or `unclean`. */
  state: "streaming" | "clean" | "unclean";
  /** The run dropped a step of it (a taken id, a step that is not JSON): it can end only unclean. */
  lost?: boolean;
  /** Side-effecting steps of an unclean source that were skipped for it (`unsafe-plan`): its reply would report on them. */
  withheld?: number;
  /** Steps the planner dropped from it (invalid, past `maxSteps`, after the reply): its reply may report on them too. */
  dropped?: number;
}
