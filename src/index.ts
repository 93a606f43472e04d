/**
 * plankit — streamed, validated, executable tool plans for LLM agents.
 *
 * @module
 */
export { PlankitError, type PlankitErrorCode } from "./errors/plankit-error.ts";
export type {
  FinishReason,
  PlanModel,
  PlanModelMessage,
  PlanModelPart,
  PlanModelPurpose,
  PlanModelRequest,
  PlanModelTool,
  PlanModelToolCall,
  PlanModelToolResult,
  PlanModelUsage,
} from "./model/plan-model.ts";
export {
  createJsonStreamParser,
  type JsonRepair,
  type JsonRepairKind,
  type JsonStreamParser,
  type JsonStreamParserOptions,
  type PartialString,
} from "./json/create-json-stream-parser.ts";
export { JsonStreamError, type JsonStreamErrorCode } from "./json/json-stream-error.ts";
export { parseJsonStream, type TextSource } from "./json/parse-json-stream.ts";
export { JsonElementStream } from "./json/json-element-stream.ts";
export {
  createToolCallReader,
  type CutOffCall,
  type ToolCallReader,
  type ToolCallReadResult,
} from "./plan/create-tool-call-reader.ts";
export { applySkillOutputs, type AppliedSkillOutputs } from "./decide/apply-skill-outputs.ts";
export { availableSkills } from "./decide/available-skills.ts";
export { ConditionSchema, type Condition, type ComparisonOperator, type PresenceOperator } from "./decide/condition.ts";
export { buildGuidedReplyPrompt } from "./decide/build-guided-reply-prompt.ts";
export {
  createGuidedConversation,
  type GuidedConversation,
  type GuidedConversationOptions,
  type GuidedTurn,
  type GuidedTurnOptions,
  type SkillArgumentsContext,
} from "./decide/create-guided-conversation.ts";
export { decide, type DecideOptions } from "./decide/decide.ts";
export type { Decision, DecisionAction } from "./decide/decision.ts";
export { DecisionStateSchema, type DecisionState } from "./decide/decision-state.ts";
export type { DecisionStrategy, StrategyContext, StrategyOutcome } from "./decide/decision-strategy.ts";
export type { DecisionTrace, StrategyAttempt } from "./decide/decision-trace.ts";
export { defaultStrategies } from "./decide/default-strategies.ts";
export { describeGoal } from "./decide/describe-goal.ts";
export { evaluateCondition } from "./decide/evaluate-condition.ts";
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
export { isPathPresent } from "./decide/is-path-present.ts";
export { isPresent } from "./decide/is-present.ts";
export { parsePlaybook } from "./decide/parse-playbook.ts";
export { parseStatePath, type StatePath } from "./decide/parse-state-path.ts";
export { PhaseSchema, type Phase } from "./decide/phase.ts";
export { PhaseManager } from "./decide/phase-manager.ts";
export { PlaybookSchema, type Playbook } from "./decide/playbook.ts";
export type { PlaybookIssue, PlaybookIssueCode } from "./decide/playbook-issue.ts";
export { PriorityRuleSchema, type PriorityRule } from "./decide/priority-rule.ts";
export { renderGuidedReply } from "./decide/render-guided-reply.ts";
export { renderRecordedValue } from "./decide/render-recorded-value.ts";
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
export { CONTEXT_REFERENCE_ROOT, StepIdSchema } from "./plan/step-id-schema.ts";
export { stepPolicyEntries } from "./plan/step-policy-entries.ts";
export { ToolStepSchema, type ToolStep } from "./plan/tool-step-schema.ts";
export { LlmStepSchema, type LlmStep } from "./plan/llm-step-schema.ts";
export { ReplyStepSchema, type ReplyStep } from "./plan/reply-step-schema.ts";
export { PlanStepSchema, type PlanStep, type PlanStepType } from "./plan/plan-step-schema.ts";
export type { PlanIssue, PlanIssueCode } from "./plan/plan-issue.ts";
export { normalizeStep, type NormalizeStepOptions, type NormalizeStepResult } from "./plan/normalize-step.ts";
export { toCompactStep, type CompactStep } from "./plan/to-compact-step.ts";
export { normalizePlan, type NormalizePlanOptions, type NormalizePlanResult } from "./plan/normalize-plan.ts";
export type { NormalizeSketchOptions } from "./plan/normalize-sketch.ts";
export { findReferences, type FoundReference } from "./plan/find-references.ts";
export { referencesOf } from "./plan/references-of.ts";
export { resolveReferences, type ResolveReferencesOptions, type StepResults } from "./plan/resolve-references.ts";
export { validateStep, type StepValidationContext, type ValidateStepResult } from "./validate/validate-step.ts";
export { resolveToolName, type ToolNameResolution } from "./validate/resolve-tool-name.ts";
export { validatePlan, type ValidatePlanOptions, type ValidatePlanResult } from "./validate/validate-plan.ts";
export { createPlanValidator, type PlanValidator } from "./validate/create-plan-validator.ts";
export { parsePlan } from "./validate/parse-plan.ts";
export type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tools/tool-descriptor.ts";
export { normalizeCatalog, type ToolCatalogInput } from "./tools/normalize-catalog.ts";
export { findSchemaProblem } from "./tools/find-schema-problem.ts";
export { normalizeSchemaTypes } from "./tools/normalize-schema-types.ts";
export { compileCatalog, type CatalogSource, type CompiledCatalog } from "./tools/compile-catalog.ts";
export type { ArgumentProblem, ReferenceLocations } from "./tools/explain-schema-errors.ts";
export { toToolJsonSchema, type JsonSchemaConverter, type ToToolJsonSchemaOptions } from "./tools/to-tool-json-schema.ts";
export {
  ToolRegistry,
  type ToolCallOptions,
  type ToolDefinition,
  type ToolExecuteOptions,
  type ToolRegistryOptions,
} from "./tools/tool-registry.ts";
export { fromMcpTools, type FromMcpToolsOptions, type McpToolCaller } from "./tools/from-mcp-tools.ts";
export { fromAiSdkTools, type AiSdkToolLike, type FromAiSdkToolsOptions } from "./tools/from-ai-sdk-tools.ts";
export { tokenizeText } from "./tools/tokenize-text.ts";
export { defaultToolSynonyms } from "./tools/default-tool-synonyms.ts";
export type { ToolScore, ToolSearchOptions } from "./tools/tool-search-index.ts";
export { rankTools } from "./tools/rank-tools.ts";
export { fuseRankings, type FuseRankingsOptions } from "./tools/fuse-rankings.ts";
export { selectTools, type AsyncToolRetriever, type SelectToolsOptions, type ToolRetriever } from "./tools/select-tools.ts";
export { createEmbeddingRetriever, type EmbeddingRetrieverOptions } from "./tools/create-embedding-retriever.ts";
export {
  createScriptedModel,
  type ScriptedAnswer,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponder,
  type ScriptedResponsesByPurpose,
  type ScriptedResponse,
} from "./model/create-scripted-model.ts";
export type {
  CompletedStep,
  FailedStep,
  Planner,
  PlannerEvent,
  PlannerProfile,
  PlannerUsage,
  PlanRequest,
  ReplanRequest,
  ReplyDraft,
  StepOutcome,
} from "./planner/planner-event.ts";
export {
  LLMPlanner,
  type LLMPlannerOptions,
  type PlannerMode,
  type PlannerSelectOptions,
  type UnderstandRequest,
} from "./planner/llm-planner.ts";
export { buildPlanPrompt, type PlanPrompt, type PlanPromptInput } from "./planner/build-plan-prompt.ts";
export type { PlanSectionsInput } from "./planner/render-plan-sections.ts";
export { buildReasoningPrompt } from "./planner/build-reasoning-prompt.ts";
export { buildRepairPrompt, type RepairPromptInput } from "./planner/build-repair-prompt.ts";
export { buildReplanPrompt, type ReplanPromptInput } from "./planner/build-replan-prompt.ts";
export { buildGoalPrompt, type GoalPromptInput } from "./planner/build-goal-prompt.ts";
export { buildClarification, type ClarifyFunction } from "./planner/build-clarification.ts";
export { renderProfile } from "./planner/render-profile.ts";
export { renderPlanRules } from "./planner/render-plan-rules.ts";
export { renderToolList } from "./planner/render-tool-list.ts";
export type { GoalLevel, PlanGoal } from "./planner/plan-goal.ts";
export { readGoal } from "./planner/read-goal.ts";
export { renderGoal } from "./planner/render-goal.ts";
export { stepKey } from "./planner/step-key.ts";
export { createReasoningFilter, type ReasoningFilter } from "./planner/create-reasoning-filter.ts";
export {
  AgentRuntime,
  type AgentRuntimeOptions,
  type AssistantMessage,
  type RunHandle,
  type RunOptions,
} from "./runtime/agent-runtime.ts";
export type { ToolPolicy } from "./runtime/tool-policy.ts";
export type {
  ApprovalDecisionEvent,
  ApprovalRequestEvent,
  ApprovalRequestStep,
  PlanEndEvent,
  PlanStartEvent,
  ReflectionEvent,
  ReplanEvent,
  ReplyDeltaEvent,
  ReplyEvent,
  RunEndEvent,
  RunEndReason,
  RuntimeErrorInfo,
  RuntimeEvent,
  RuntimeEventBase,
  RuntimeEventType,
  RuntimeUsage,
  StepEndEvent,
  StepErrorEvent,
  StepIssueEvent,
  StepPlannedEvent,
  StepRetryEvent,
  StepSkipCode,
  StepSkippedEvent,
  StepStartEvent,
} from "./runtime/runtime-event.ts";
export type { ReflectionRecord, RunState, StepApproval, StepState, StepStatus } from "./runtime/run-state.ts";
export type { ApprovalCall, ApprovalMode, ApprovalPolicy } from "./runtime/approval-policy.ts";
export type { ApprovalDecision } from "./runtime/approval-decision.ts";
export { createRunState, type RunStateReducer } from "./runtime/create-run-state.ts";
export { replay } from "./runtime/replay.ts";
export { encodeJsonl } from "./runtime/encode-jsonl.ts";
export { toJsonl } from "./runtime/to-jsonl.ts";
export { parseJsonl } from "./runtime/parse-jsonl.ts";
export { encodeSse } from "./runtime/encode-sse.ts";
export { toChatCompletionChunks, type ChatCompletionChunk, type ChatCompletionChunkOptions } from "./runtime/to-chat-completion-chunks.ts";
export { fromChatMessages } from "./runtime/from-chat-messages.ts";
export { JsonlEncoderStream } from "./runtime/jsonl-encoder-stream.ts";
export { SseEncoderStream } from "./runtime/sse-encoder-stream.ts";
export { toReadableStream } from "./runtime/to-readable-stream.ts";
export { canonicalJson } from "./runtime/canonical-json.ts";
export type { CacheHit, ResultCache } from "./runtime/result-cache.ts";
export { createMemoryCache, type MemoryCacheOptions } from "./runtime/create-memory-cache.ts";
export type { MemoryEntry, MemoryStore } from "./runtime/memory-store.ts";
export { createMemoryStore, type MemoryStoreOptions } from "./runtime/create-memory-store.ts";
export type { Reflection, ReflectionRequest, Reflector } from "./runtime/reflector.ts";
export type { StepAttemptOptions, StepAttemptOutcome, StepCall, StepExecutor } from "./runtime/step-executor.ts";
export { noOpReflector } from "./runtime/no-op-reflector.ts";
export { createModelReflector, type ModelReflectorOptions } from "./runtime/create-model-reflector.ts";
export { computeBackoff, type BackoffPolicy } from "./runtime/compute-backoff.ts";
export { systemClock, type RuntimeClock } from "./runtime/runtime-clock.ts";
export type { RuntimeBudget } from "./runtime/runtime-budget.ts";
export type { Dialog, DialogMessage } from "./runtime/dialog.ts";
