/**
 * Phase bookkeeping: which phase is current, what it still misses, what follows.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { DecisionState } from "./decision-state.ts";
import { evaluateCondition } from "./evaluate-condition.ts";
import { isPathPresent } from "./is-path-present.ts";
import { jsonEqual } from "./json-equal.ts";
import type { Phase } from "./phase.ts";
import type { Playbook } from "./playbook.ts";
import { resolvePath } from "./resolve-path.ts";

/**
 * Answers the phase questions of a playbook: the current phase of a state,
 * whether a phase's gate passes, its missing goals, whether it is complete, and
 * the phase after it. Holds no state of its own beyond the playbook.
 *
 * Goals of a phase are its `checkpoints` (each must be present) and, when it
 * has a `gate_field`, that field (its gate must pass). A gate without
 * `gate_field` (a `gate_check` whose leaves all name paths) still blocks
 * completion but adds no goal.
 *
 * @example
 * ```ts
 * const phases = new PhaseManager(playbook);
 * const phase = phases.current(state);
 * if (phases.isComplete(phase, state)) console.log("next:", phases.next(phase)?.id ?? "finish");
 * else console.log("missing:", phases.missingGoals(phase, state));
 * ```
 */
export class PhaseManager {
  /** The playbook's phases, in order. */
  readonly phases: readonly Phase[];
  readonly #byId = new Map<string, number>();

  /**
   * @param playbook - the playbook whose phases to manage.
   * @throws PlankitError `invalid-playbook` when the playbook has no phases.
   */
  constructor(playbook: Playbook) {
    if (playbook.phases.length === 0) {
      throw new PlankitError("invalid-playbook", "The playbook has no phases: add at least one to /phases");
    }
    this.phases = playbook.phases;
    playbook.phases.forEach((phase, index) => {
      if (!this.#byId.has(phase.id)) this.#byId.set(phase.id, index);
    });
  }

  /**
   * The phase with this id.
   *
   * @param id - a phase id.
   * @returns the phase, or `undefined` when the playbook has none with that id.
   */
  get(id: string): Phase | undefined {
    const index = this.#byId.get(id);
    return index === undefined ? undefined : this.phases[index];
  }

  /**
   * The phase `state.current_task_id` names, or the first phase when it is unset.
   *
   * @param state - the per-turn state.
   * @returns the current phase.
   * @throws PlankitError `unknown-phase` when `current_task_id` names no phase.
   */
  current(state: DecisionState): Phase {
    const id = state.current_task_id;
    if (id === undefined || id === null || id === "") return this.phases[0] as Phase;
    const phase = this.get(id);
    if (!phase) {
      throw new PlankitError(
        "unknown-phase",
        `state.current_task_id is "${id}", but the playbook has no such phase (phases: ${this.phases.map((item) => item.id).join(", ")})`,
      );
    }
    return phase;
  }

  /**
   * The phase after `phase`.
   *
   * @param phase - a phase of this playbook (or its id).
   * @returns the next phase, or `undefined` after the last one.
   * @throws PlankitError `unknown-phase` when `phase` is not in the playbook.
   */
  next(phase: Phase | string): Phase | undefined {
    return this.phases[this.#indexOf(phase) + 1];
  }

  /**
   * Whether the phase's gate passes: `gate_field` equals `gate_value` (when
   * set) and `gate_check` holds (when set). A phase without a gate passes.
   *
   * @param phase - a phase of this playbook (or its id).
   * @param state - the per-turn state.
   * @returns `true` when the gate passes or there is none.
   * @throws PlankitError `invalid-playbook` when `gate_field` has neither `gate_value` nor `gate_check`.
   */
  gatePasses(phase: Phase | string, state: DecisionState): boolean {
    const resolved = this.#phase(phase);
    const { gate_field: field, gate_value: value, gate_check: check } = resolved;
    if (field !== undefined && value === undefined && check === undefined) {
      throw new PlankitError(
        "invalid-playbook",
        `Phase "${resolved.id}" has gate_field "${field}" but neither gate_value nor gate_check: say what the gate expects`,
      );
    }
    if (field !== undefined && value !== undefined) {
      const resolved = resolvePath(state, field);
      if (!resolved.found || !jsonEqual(resolved.value, value)) return false;
    }
    return check === undefined || evaluateCondition(check, state, field);
  }

  /**
   * The phase's goals that are not met yet, in order: checkpoints that are not
   * present, then `gate_field` when the gate does not pass.
   *
   * @param phase - a phase of this playbook (or its id).
   * @param state - the per-turn state.
   * @returns the missing goal paths (empty when none is missing).
   */
  missingGoals(phase: Phase | string, state: DecisionState): string[] {
    const resolved = this.#phase(phase);
    const missing = (resolved.checkpoints ?? []).filter((path) => !isPathPresent(state, path));
    const field = resolved.gate_field;
    if (field !== undefined && !missing.includes(field) && !this.gatePasses(resolved, state)) missing.push(field);
    return [...new Set(missing)];
  }

  /**
   * Whether the phase is complete: every checkpoint present and the gate passes.
   *
   * @param phase - a phase of this playbook (or its id).
   * @param state - the per-turn state.
   * @returns `true` when the phase is complete.
   */
  isComplete(phase: Phase | string, state: DecisionState): boolean {
    const resolved = this.#phase(phase);
    return (resolved.checkpoints ?? []).every((path) => isPathPresent(state, path)) && this.gatePasses(resolved, state);
  }

  #indexOf(phase: Phase | string): number {
    const id = typeof phase === "string" ? phase : phase.id;
    const index = this.#byId.get(id);
    if (index === undefined) {
      throw new PlankitError(
        "unknown-phase",
        `The playbook has no phase "${id}" (phases: ${this.phases.map((item) => item.id).join(", ")})`,
      );
    }
    return index;
  }

  #phase(phase: Phase | string): Phase {
    return typeof phase === "string" ? (this.phases[this.#indexOf(phase)] as Phase) : phase;
  }
}
