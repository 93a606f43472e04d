/**
 * plankit/model — the model protocol: what a language model adapter
 * implements (`PlanModel`) and the requests, messages, parts, usage and
 * timeouts that pass through it. `plankit/ai` and `plankit/openai` adapt
 * real clients to it; `plankit/test` scripts it.
 *
 * @module
 */
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
