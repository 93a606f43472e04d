/**
 * The explanation attached to every decision.
 *
 * @module
 */
import type { DecisionAction } from "./decision.ts";

/** One strategy the engine tried: whether it decided, and why. */
export interface StrategyAttempt {
  strategy: string;
  hit: boolean;
  /** Why it decided, or why it passed. */
  reason: string;
  /** Extra evidence, e.g. the model's raw answer (truncated). */
  detail?: string;
}

/**
 * The trace event of one decision: a plain JSON object, ready for an event
 * log. It repeats the outcome so a log line stands on its own.
 *
 * @example
 * ```ts
 * await decide({ state, playbook, skills, onTrace: (trace) => log.push(JSON.stringify(trace)) });
 * ```
 */
export interface DecisionTrace {
  type: "decision-made";
  /** The phase the decision was made in. */
  phase: string;
  /** The names of the skills available in that phase on this state. */
  available: string[];
  /** The phase's missing goals on this state. */
  missing_goals: string[];
  /** The strategies tried, in order; the last one hit. */
  attempts: StrategyAttempt[];
  strategy: string;
  action: DecisionAction;
  skill?: string;
  next_phase?: string;
  reason: string;
}
