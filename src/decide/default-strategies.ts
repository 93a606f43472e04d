/**
 * The default strategy chain.
 *
 * @module
 */
import type { DecisionStrategy } from "./decision-strategy.ts";
import { deterministicStrategy } from "./strategies/deterministic.ts";
import { forceSkillStrategy } from "./strategies/force-skill.ts";
import { llmPlannerStrategy } from "./strategies/llm-planner-strategy.ts";
import { noAvailableSkillsStrategy } from "./strategies/no-available-skills.ts";
import { phaseCompleteStrategy } from "./strategies/phase-complete.ts";
import { priorityRulesStrategy } from "./strategies/priority-rules.ts";
import { queryModeStrategy } from "./strategies/query-mode.ts";

/**
 * The default chain, highest priority first: `force_skill → priority_rules →
 * query_mode → phase_complete → deterministic → llm_planner →
 * no_available_skills`. The first strategy that decides wins; the last one
 * always decides.
 *
 * @example
 * ```ts
 * const withoutModel = defaultStrategies.filter((strategy) => strategy.name !== "llm_planner");
 * await decide({ state, playbook, skills, strategies: withoutModel });
 * ```
 */
export const defaultStrategies: readonly DecisionStrategy[] = Object.freeze([
  forceSkillStrategy,
  priorityRulesStrategy,
  queryModeStrategy,
  phaseCompleteStrategy,
  deterministicStrategy,
  llmPlannerStrategy,
  noAvailableSkillsStrategy,
]);
