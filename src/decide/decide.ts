/**
 * The decision engine's entry point: one call per turn.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { availableSkills } from "./available-skills.ts";
import type { Decision } from "./decision.ts";
import type { DecisionState } from "./decision-state.ts";
import type { DecisionStrategy, StrategyContext } from "./decision-strategy.ts";
import type { DecisionTrace, StrategyAttempt } from "./decision-trace.ts";
import { defaultStrategies } from "./default-strategies.ts";
import { PhaseManager } from "./phase-manager.ts";
import type { Playbook } from "./playbook.ts";
import { type SkillCatalog, toSkillMap } from "./skill-catalog.ts";

/** The inputs of one decision. */
export interface DecideOptions {
  /** The per-turn state. */
  state: DecisionState;
  /** The playbook (check it once with `validatePlaybook` or `parsePlaybook`). */
  playbook: Playbook;
  /** The skill registry. */
  skills: SkillCatalog;
  /** The model `llm_planner` asks; without one that strategy passes. */
  model?: PlanModel;
  /** Cancels the model call. */
  signal?: AbortSignal;
  /** The user's latest message, shown to the model. */
  message?: string;
  /** Receives the trace of the decision before `decide` returns. */
  onTrace?: (trace: DecisionTrace) => void;
  /**
   * The chain to run.
   * @defaultValue `defaultStrategies`
   */
  strategies?: readonly DecisionStrategy[];
  /**
   * Whether a natural-language reply is an acceptable outcome; when not, the
   * fallbacks `finish` instead of `respond`.
   * @defaultValue `true`
   */
  allowRespond?: boolean;
}

/**
 * Chooses what to do next — call a skill, respond, move to the next phase, or
 * finish — by running the strategy chain (`force_skill → priority_rules →
 * query_mode → phase_complete → deterministic → llm_planner →
 * no_available_skills`) until one decides. Pure with respect to its inputs:
 * it never changes `state`; only `llm_planner` calls the model.
 *
 * The current phase is `state.current_task_id` (the first phase when unset);
 * the available skills and missing goals are computed once and shared by all
 * strategies. The returned decision carries a trace of every strategy tried,
 * which `onTrace` also receives.
 *
 * @param options - state, playbook, skills, and optionally a model, signal, message, trace sink, chain and `allowRespond`.
 * @returns the decision, with its strategy, reason and trace.
 * @throws PlankitError `invalid-playbook` (no allow-list, an allowed skill the registry lacks, a gate without check),
 *   `unknown-phase`, `invalid-path`, `unavailable-skill` (a forced skill or a rule's skill cannot run),
 *   `model-error`, `aborted`.
 * @example
 * ```ts
 * const decision = await decide({ state, playbook, skills, model });
 * switch (decision.action) {
 *   case "call_skill": state = await runSkill(decision.skill!, state); break;
 *   case "replan": state = { ...state, current_task_id: decision.next_phase }; break;
 * }
 * ```
 */
export async function decide(options: DecideOptions): Promise<Decision> {
  const { state, playbook, model, signal, message, onTrace } = options;
  if (signal?.aborted)
    throw new PlankitError("aborted", "The decision was aborted before it started", { cause: signal.reason });
  const phases = new PhaseManager(playbook);
  const phase = phases.current(state);
  const skills = toSkillMap(options.skills);
  const available = availableSkills(state, playbook, phase, skills);
  const missingGoals = phases.missingGoals(phase, state);
  const context: StrategyContext = {
    state,
    playbook,
    phases,
    phase,
    skills,
    available,
    missingGoals,
    complete: phases.isComplete(phase, state),
    allowRespond: options.allowRespond ?? true,
    ...(model === undefined ? {} : { model }),
    ...(signal === undefined ? {} : { signal }),
    ...(message === undefined ? {} : { message }),
  };
  const attempts: StrategyAttempt[] = [];
  for (const strategy of options.strategies ?? defaultStrategies) {
    const outcome = await strategy.run(context);
    const attempt: StrategyAttempt = { strategy: strategy.name, hit: outcome.hit, reason: outcome.reason };
    if (outcome.detail !== undefined) attempt.detail = outcome.detail;
    attempts.push(attempt);
    if (!outcome.hit) continue;
    const trace: DecisionTrace = {
      type: "decision-made",
      phase: phase.id,
      available: available.map((skill) => skill.name),
      missing_goals: [...missingGoals],
      attempts,
      strategy: strategy.name,
      action: outcome.action,
      reason: outcome.reason,
    };
    if (outcome.skill !== undefined) trace.skill = outcome.skill;
    if (outcome.next_phase !== undefined) trace.next_phase = outcome.next_phase;
    onTrace?.(trace);
    const decision: Decision = {
      action: outcome.action,
      phase: phase.id,
      strategy: strategy.name,
      reason: outcome.reason,
      trace,
    };
    if (outcome.skill !== undefined) decision.skill = outcome.skill;
    if (outcome.next_phase !== undefined) decision.next_phase = outcome.next_phase;
    return decision;
  }
  throw new PlankitError(
    "invalid-options",
    `No strategy decided (tried ${attempts.map((attempt) => attempt.strategy).join(", ") || "none"}): end the chain with one that always decides, such as no_available_skills`,
  );
}
