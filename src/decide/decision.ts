/**
 * The engine's answer for one turn.
 *
 * @module
 */
import type { DecisionTrace } from "./decision-trace.ts";

/**
 * What to do next: run a skill, reply in natural language, move to the next
 * phase (`replan`, with `next_phase`), or end the conversation.
 */
export type DecisionAction = "call_skill" | "respond" | "replan" | "finish";

/**
 * The engine's answer for one turn. The engine never changes the state: the
 * caller runs the skill, or sets `current_task_id` to `next_phase` on
 * `replan`, and clears `force_skill` once the forced skill ran.
 *
 * @example
 * ```ts
 * const decision: Decision = await decide({ state, playbook, skills });
 * if (decision.action === "replan") state = { ...state, current_task_id: decision.next_phase };
 * ```
 */
export interface Decision {
  action: DecisionAction;
  /** The skill to run, with `call_skill`. */
  skill?: string;
  /** The phase to move to, with `replan`. */
  next_phase?: string;
  /** The phase the decision was made in. */
  phase: string;
  /** The strategy that decided. */
  strategy: string;
  /** Why, in one sentence. */
  reason: string;
  /** Every strategy tried and why it did or did not decide. */
  trace: DecisionTrace;
}
