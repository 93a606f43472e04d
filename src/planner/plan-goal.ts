/**
 * The structured goal that `understandRequest()` returns.
 *
 * @module
 */

/** A level on a three-point scale. */
export type GoalLevel = "high" | "medium" | "low";

/**
 * A request understood as a goal: the core objective, what it implies, the
 * constraints planning must respect, how success is measured, and what may
 * go wrong. Render it with `renderGoal` and pass it as `context` to `plan()`
 * to plan with it.
 *
 * @example
 * ```ts
 * const goal: PlanGoal = {
 *   objective: "Analyse Q1-Q2 sales growth of the main products in North America",
 *   requirements: ["Compare Q1 with Q2"], constraints: ["North America only", "Q1-Q2"],
 *   metrics: ["growth rate"], risks: ["missing data"], resources: ["sales data"],
 *   time: "Q1-Q2", quality: "high", sensitive: false,
 * };
 * ```
 */
export interface PlanGoal {
  /** The core objective, in one sentence. */
  objective: string;
  /** Requirements the request implies without stating them. */
  requirements: string[];
  /** Hard and soft constraints: time, place, quality, budget, scope. */
  constraints: string[];
  /** How success is measured. */
  metrics: string[];
  /** What may go wrong. */
  risks: string[];
  /** Data, tools or people the work needs. */
  resources: string[];
  /** The time constraint, when there is one. */
  time?: string;
  /** The quality the answer must reach. */
  quality?: GoalLevel;
  /** How uncertain the request is. */
  uncertainty?: GoalLevel;
  /** The request mentions secrets (passwords, keys, tokens): handle data with care. */
  sensitive: boolean;
}
