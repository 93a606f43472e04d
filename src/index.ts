/**
 * plankit — streamed, validated, executable tool plans for LLM agents.
 *
 * @module
 */
export { PlankitError, type PlankitErrorCode } from "./errors/plankit-error.ts";
export type { FinishReason, PlanModel, PlanModelPart, PlanModelRequest, PlanModelUsage } from "./model/plan-model.ts";
export { availableSkills } from "./decide/available-skills.ts";
export { ConditionSchema, type Condition, type ComparisonOperator, type PresenceOperator } from "./decide/condition.ts";
export { decide, type DecideOptions } from "./decide/decide.ts";
export type { Decision, DecisionAction } from "./decide/decision.ts";
export { DecisionStateSchema, type DecisionState } from "./decide/decision-state.ts";
export type { DecisionStrategy, StrategyContext, StrategyOutcome } from "./decide/decision-strategy.ts";
export type { DecisionTrace, StrategyAttempt } from "./decide/decision-trace.ts";
export { defaultStrategies } from "./decide/default-strategies.ts";
export { evaluateCondition } from "./decide/evaluate-condition.ts";
export { isPathPresent } from "./decide/is-path-present.ts";
export { isPresent } from "./decide/is-present.ts";
export { parsePlaybook } from "./decide/parse-playbook.ts";
export { parseStatePath, type StatePath } from "./decide/parse-state-path.ts";
export { PhaseSchema, type Phase } from "./decide/phase.ts";
export { PhaseManager } from "./decide/phase-manager.ts";
export { PlaybookSchema, type Playbook } from "./decide/playbook.ts";
export type { PlaybookIssue, PlaybookIssueCode } from "./decide/playbook-issue.ts";
export { PriorityRuleSchema, type PriorityRule } from "./decide/priority-rule.ts";
export { resolvePath, type ResolvedPath } from "./decide/resolve-path.ts";
export { SkillSchema, type Skill } from "./decide/skill.ts";
export type { SkillCatalog } from "./decide/skill-catalog.ts";
export { deterministicStrategy } from "./decide/strategies/deterministic.ts";
export { forceSkillStrategy } from "./decide/strategies/force-skill.ts";
export { llmPlannerStrategy } from "./decide/strategies/llm-planner.ts";
export { noAvailableSkillsStrategy } from "./decide/strategies/no-available-skills.ts";
export { phaseCompleteStrategy } from "./decide/strategies/phase-complete.ts";
export { priorityRulesStrategy } from "./decide/strategies/priority-rules.ts";
export { queryModeStrategy } from "./decide/strategies/query-mode.ts";
export { validatePlaybook, type ValidatePlaybookOptions } from "./decide/validate-playbook.ts";
