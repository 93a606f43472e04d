/**
 * plankit — streamed, validated, executable tool plans for LLM agents.
 *
 * The front door holds what most applications need: the runtime, the
 * planner, the tool registry, the error type, and the memory, cache and
 * reflector factories. The rest lives in subpath entries: `plankit/json`,
 * `plankit/plan`, `plankit/tools`, `plankit/events`, `plankit/decide`,
 * `plankit/ai`, `plankit/openai` and `plankit/test`.
 *
 * @module
 */
export { PlankitError, type PlankitErrorCode } from "./errors/plankit-error.ts";
export type { ApprovalDecision } from "./events/approval-decision.ts";
export type { Dialog, DialogMessage } from "./events/dialog.ts";
export type { ReflectionRecord, RunState, StepApproval, StepState, StepStatus } from "./events/run-state.ts";
// The events one by one, their reducer, replay and encoders: plankit/events.
export type {
  RunEndReason,
  RuntimeErrorInfo,
  RuntimeEvent,
  RuntimeEventType,
  RuntimeUsage,
  StepSkipCode,
} from "./events/runtime-event.ts";
export type { ModelTimeouts } from "./model/bound-stream.ts";
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
export type { LlmStep } from "./plan/llm-step-schema.ts";
export type { PlanIssue, PlanIssueCode } from "./plan/plan-issue.ts";
export type { PlanStep, PlanStepType } from "./plan/plan-step-schema.ts";
export type { ReplyStep } from "./plan/reply-step-schema.ts";
export type { ToolStep } from "./plan/tool-step-schema.ts";
export {
  LLMPlanner,
  type LLMPlannerOptions,
  type PlannerMode,
  type ToolSelector,
  type UnderstandRequest,
} from "./planner/llm-planner.ts";
export type { Planner } from "./planner/planner.ts";
export type {
  CompletedStep,
  FailedStep,
  PlannerEvent,
  PlannerProfile,
  PlannerUsage,
  PlanRequest,
  ReplanRequest,
  ReplyDraft,
  StepOutcome,
} from "./planner/planner-event.ts";
export type { Reflection, ReflectionRequest, Reflector } from "./planner/reflector.ts";
export {
  AgentRuntime,
  type AgentRuntimeOptions,
  type AssistantMessage,
  type RunHandle,
  type RunOptions,
} from "./runtime/agent-runtime.ts";
export type { ApprovalCall, ApprovalMode, ApprovalPolicy } from "./runtime/approval-policy.ts";
export { checkApprovalDecisions } from "./runtime/check-approval-decisions.ts";
export { createMemoryCache, type MemoryCacheOptions } from "./runtime/create-memory-cache.ts";
export { createMemoryStore, type MemoryStoreOptions } from "./runtime/create-memory-store.ts";
export { createModelReflector, type ModelReflectorOptions } from "./runtime/create-model-reflector.ts";
export type { MemoryEntry, MemoryStore } from "./runtime/memory-store.ts";
export { noOpReflector } from "./runtime/no-op-reflector.ts";
export type { CacheHit, ResultCache } from "./runtime/result-cache.ts";
export type { RuntimeBudget } from "./runtime/runtime-budget.ts";
export type { StepAttemptOptions, StepAttemptOutcome, StepCall, StepExecutor } from "./runtime/step-executor.ts";
export type { ToolPolicy } from "./runtime/tool-policy.ts";
export { type RuntimeClock, systemClock } from "./shared/runtime-clock.ts";
export type { CatalogSource } from "./tools/compile-catalog.ts";
export { defineTool } from "./tools/define-tool.ts";
export type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tools/tool-descriptor.ts";
export {
  type ToolCallOptions,
  type ToolDefinition,
  type ToolExecuteOptions,
  type ToolExecuteResult,
  ToolRegistry,
  type ToolRegistryOptions,
} from "./tools/tool-registry.ts";
export type { InferToolArguments, InferToolResult, ToolSchema } from "./tools/tool-schema.ts";
