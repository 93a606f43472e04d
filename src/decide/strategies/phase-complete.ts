/**
 * Strategy 4: moving on when a phase is done.
 *
 * @module
 */
import type { DecisionStrategy } from "../decision-strategy.ts";

/**
 * `phase_complete`: when the current phase is complete (see `PhaseManager`),
 * `replan` to the next phase, or `finish` after the last one.
 *
 * @example
 * ```ts
 * const decision = await decide({ state, playbook, skills });
 * if (decision.action === "replan") state.current_task_id = decision.next_phase;
 * ```
 */
export const phaseCompleteStrategy: DecisionStrategy = {
  name: "phase_complete",
  run({ phase, phases, complete, missingGoals }) {
    if (!complete) {
      const missing = missingGoals.length === 0 ? "its gate does not pass" : `missing ${missingGoals.join(", ")}`;
      return { hit: false, reason: `phase "${phase.id}" is not complete: ${missing}` };
    }
    const next = phases.next(phase);
    if (next === undefined) {
      return { hit: true, action: "finish", reason: `phase "${phase.id}" is complete and it is the last phase` };
    }
    return {
      hit: true,
      action: "replan",
      next_phase: next.id,
      reason: `phase "${phase.id}" is complete; next phase is "${next.id}"`,
    };
  },
};
