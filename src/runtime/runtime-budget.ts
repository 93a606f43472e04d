/**
 * The limits of one run.
 *
 * @module
 */

/**
 * Limits on one run; every field is optional and unlimited when absent.
 * A step refused by a budget is skipped with code `budget`, and the run ends
 * with reason `budget`; the deadline stops the run with reason `deadline`.
 *
 * @example
 * ```ts
 * new AgentRuntime({ planner, registry, budget: { modelCalls: 6, toolCalls: 20, replans: 1, deadlineMs: 30_000 } });
 * ```
 */
export interface RuntimeBudget {
  /**
   * Model calls: the planner's (the first from the start of planning when the planner has a model, the
   * others when its stream ends), re-plans, `llm` steps, reflection, integration.
   */
  modelCalls?: number;
  /** Tool calls that reach the registry; cache hits are free. */
  toolCalls?: number;
  /** Re-plans (also bounded by the runtime's `maxReplans`). */
  replans?: number;
  /** Tool and `llm` steps started. */
  steps?: number;
  /** Wall time of the whole run, in milliseconds. */
  deadlineMs?: number;
}
