/**
 * A decision of the guided conversation in one line.
 *
 * @module
 */
import type { DecisionTrace } from "../src/decide.ts";

/**
 * Writes a decision trace as one line: the phase, the strategy that decided,
 * the action with its skill or next phase, why, and how many strategies
 * passed before it.
 *
 * @param trace - the trace of a `decision` event.
 * @returns e.g. `collect · llm_planner → call_skill read_destination: the message names a destination (Tokyo) (after 4 passed)`.
 * @example
 * ```ts
 * item.textContent = describeDecision(event.trace);
 * ```
 */
export function describeDecision(trace: DecisionTrace): string {
  const target = trace.skill ?? trace.next_phase;
  const passed = trace.attempts.length - 1;
  return `${trace.phase} · ${trace.strategy} → ${trace.action}${target === undefined ? "" : ` ${target}`}: ${trace.reason}${passed > 0 ? ` (after ${passed} passed)` : ""}`;
}
