/**
 * plankit/runtime — the contracts the runtime calls, for code that extends
 * it: a planner of its own (`Planner` and the events it yields), a reflector's
 * request and answer, a step executor, a tool selector, memory entries, cache
 * hits and approval calls. The runtime itself is in `plankit`.
 *
 * @module
 */
export type { PlannerMode } from "./planner/llm-planner.ts";
export type { GoalLevel, PlanGoal } from "./planner/plan-goal.ts";
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
export type { PlannerOptions, ToolSelector } from "./planner/read-planner-options.ts";
export type { Reflection, ReflectionRequest } from "./planner/reflector.ts";
export type { ToolCallPlannerOptions } from "./planner/tool-call-planner.ts";
export type { UnderstandRequest } from "./planner/understand-request.ts";
export type { AssistantMessage } from "./runtime/agent-runtime.ts";
export type { ApprovalCall, ApprovalMode } from "./runtime/approval-policy.ts";
export type { MemoryEntry } from "./runtime/memory-store.ts";
export type { CacheHit } from "./runtime/result-cache.ts";
export type { StepAttemptOptions, StepAttemptOutcome, StepCall, StepExecutor } from "./runtime/step-executor.ts";
