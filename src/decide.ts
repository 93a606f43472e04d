/**
 * plankit/decide — the decision engine for guided conversations: playbooks
 * of phases and skills, the strategies that choose the next action, and the
 * guided conversation that runs them turn by turn.
 *
 * @module
 */
export { type AppliedSkillOutputs, applySkillOutputs } from "./decide/apply-skill-outputs.ts";
export { availableSkills } from "./decide/available-skills.ts";
export { buildGuidedReplyPrompt } from "./decide/build-guided-reply-prompt.ts";
export { type ComparisonOperator, type Condition, ConditionSchema, type PresenceOperator } from "./decide/condition.ts";
export { createGuidedConversation } from "./decide/create-guided-conversation.ts";
export { type DecideOptions, decide } from "./decide/decide.ts";
export type { Decision, DecisionAction } from "./decide/decision.ts";
export { type DecisionState, DecisionStateSchema } from "./decide/decision-state.ts";
export type { DecisionStrategy, StrategyContext, StrategyOutcome } from "./decide/decision-strategy.ts";
export type { DecisionTrace, StrategyAttempt } from "./decide/decision-trace.ts";
export { defaultStrategies } from "./decide/default-strategies.ts";
export { describeGoal } from "./decide/describe-goal.ts";
export { evaluateCondition } from "./decide/evaluate-condition.ts";
export type {
  GuidedConversation,
  GuidedConversationOptions,
  GuidedTurn,
  GuidedTurnOptions,
  SkillArgumentsContext,
} from "./decide/guided-conversation.ts";
export type {
  DecisionEvent,
  GuidedEvent,
  GuidedEventBase,
  GuidedEventType,
  GuidedReplyEvent,
  GuidedTurnUsage,
  PhaseChangeEvent,
  SkillEndEvent,
  SkillErrorEvent,
  SkillStartEvent,
  TurnEndEvent,
  TurnStartEvent,
} from "./decide/guided-event.ts";
export type { GuidedReplyInput, MissingGoal, RecordedValue } from "./decide/guided-reply-input.ts";
export { parsePlaybook } from "./decide/parse-playbook.ts";
export type { StatePath } from "./decide/parse-state-path.ts";
export { type Phase, PhaseSchema } from "./decide/phase.ts";
export { PhaseManager } from "./decide/phase-manager.ts";
export { type Playbook, PlaybookSchema } from "./decide/playbook.ts";
export type { PlaybookIssue, PlaybookIssueCode } from "./decide/playbook-issue.ts";
export { type PriorityRule, PriorityRuleSchema } from "./decide/priority-rule.ts";
export { renderGuidedReply } from "./decide/render-guided-reply.ts";
export { renderRecordedValue } from "./decide/render-recorded-value.ts";
export { type ResolvedPath, resolvePath } from "./decide/resolve-path.ts";
export { type Skill, SkillSchema } from "./decide/skill.ts";
export type { SkillCatalog } from "./decide/skill-catalog.ts";
export { deterministicStrategy } from "./decide/strategies/deterministic.ts";
export { forceSkillStrategy } from "./decide/strategies/force-skill.ts";
export { llmPlannerStrategy } from "./decide/strategies/llm-planner-strategy.ts";
export { noAvailableSkillsStrategy } from "./decide/strategies/no-available-skills.ts";
export { phaseCompleteStrategy } from "./decide/strategies/phase-complete.ts";
export { priorityRulesStrategy } from "./decide/strategies/priority-rules.ts";
export { queryModeStrategy } from "./decide/strategies/query-mode.ts";
export { type ValidatePlaybookOptions, validatePlaybook } from "./decide/validate-playbook.ts";
