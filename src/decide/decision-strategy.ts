/**
 * The contract of one link of the strategy chain.
 *
 * @module
 */
import type { PlanModel } from "../model/plan-model.ts";
import type { DecisionAction } from "./decision.ts";
import type { DecisionState } from "./decision-state.ts";
import type { Phase } from "./phase.ts";
import type { PhaseManager } from "./phase-manager.ts";
import type { Playbook } from "./playbook.ts";
import type { Skill } from "./skill.ts";

/** What a strategy sees: the turn's inputs and the facts the engine computed once. */
export interface StrategyContext {
  state: DecisionState;
  playbook: Playbook;
  phases: PhaseManager;
  /** The current phase. */
  phase: Phase;
  /** The skill registry by name. */
  skills: ReadonlyMap<string, Skill>;
  /** The skills available in the current phase (see `availableSkills`). */
  available: readonly Skill[];
  /** The current phase's missing goals. */
  missingGoals: readonly string[];
  /** Whether the current phase is complete. */
  complete: boolean;
  /** The user's latest message, if the caller passed one. */
  message?: string;
  model?: PlanModel;
  signal?: AbortSignal;
  /** Whether a natural-language reply is an acceptable outcome. */
  allowRespond: boolean;
}

/** A strategy's result: a decision (`hit: true`) or a reason to pass to the next strategy. */
export type StrategyOutcome =
  | { hit: true; action: DecisionAction; skill?: string; next_phase?: string; reason: string; detail?: string }
  | { hit: false; reason: string; detail?: string };

/**
 * One link of the strategy chain. `run` either decides or passes with a
 * reason; it may throw a `PlankitError` for a configuration that cannot work
 * (a forced skill that cannot run).
 *
 * @example
 * ```ts
 * const alwaysRespond: DecisionStrategy = { name: "always_respond", run: () => ({ hit: true, action: "respond", reason: "demo" }) };
 * ```
 */
export interface DecisionStrategy {
  readonly name: string;
  run(context: StrategyContext): StrategyOutcome | Promise<StrategyOutcome>;
}
