/**
 * plankit — streamed, validated, executable tool plans for LLM agents.
 *
 * @module
 */
export { PlankitError, type PlankitErrorCode } from "./errors/plankit-error.ts";
export type { FinishReason, PlanModel, PlanModelPart, PlanModelRequest, PlanModelUsage } from "./model/plan-model.ts";
