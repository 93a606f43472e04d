/**
 * plankit — streamed, validated, executable tool plans for LLM agents.
 *
 * The front door holds what most applications need: the runtime, the
 * planners (and reading a request as a goal), the tool registry, the error type, the memory, cache and
 * reflector factories, and the types an application writes (options, the
 * run's events, tools, steps). Every other name lives in exactly one subpath
 * entry: `plankit/json`, `plankit/plan`, `plankit/tools`, `plankit/events`,
 * `plankit/model`, `plankit/runtime`, `plankit/decide`, `plankit/ai`,
 * `plankit/openai`, `plankit/ui`, `plankit/react` and `plankit/test`.
 *
 * @module
 */
export { PlankitError, type PlankitErrorCode } from "./errors/plankit-error.ts";
export type { ApprovalDecision } from "./events/approval-decision.ts";
export type { RuntimeEvent } from "./events/runtime-event.ts";
export type { PlanStep } from "./plan/plan-step-schema.ts";
export { LLMPlanner, type LLMPlannerOptions } from "./planner/llm-planner.ts";
export type { Reflector } from "./planner/reflector.ts";
export { renderGoal } from "./planner/render-goal.ts";
export { ToolCallPlanner } from "./planner/tool-call-planner.ts";
export { understandRequest } from "./planner/understand-request.ts";
export { AgentRuntime, type AgentRuntimeOptions, type RunHandle, type RunOptions } from "./runtime/agent-runtime.ts";
export type { ApprovalPolicy } from "./runtime/approval-policy.ts";
export { checkApprovalDecisions } from "./runtime/check-approval-decisions.ts";
export { createMemoryCache, type MemoryCacheOptions } from "./runtime/create-memory-cache.ts";
export { createMemoryStore, type MemoryStoreOptions } from "./runtime/create-memory-store.ts";
export { createModelReflector, type ModelReflectorOptions } from "./runtime/create-model-reflector.ts";
export type { MemoryStore } from "./runtime/memory-store.ts";
export { noOpReflector } from "./runtime/no-op-reflector.ts";
export type { ResultCache } from "./runtime/result-cache.ts";
export type { RuntimeBudget } from "./runtime/runtime-budget.ts";
export type { ToolPolicy } from "./runtime/tool-policy.ts";
export { type RuntimeClock, systemClock } from "./shared/runtime-clock.ts";
export { defineTool } from "./tools/define-tool.ts";
export { type ToolDefinition, ToolRegistry, type ToolRegistryOptions } from "./tools/tool-registry.ts";
