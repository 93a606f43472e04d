/**
 * plankit/plan — plans as data: the step schemas, reading steps from what
 * models write, normalizing, validating against a catalog, and references
 * between steps.
 *
 * @module
 */

export { CONTEXT_REFERENCE_ROOT } from "./plan/context-reference-root.ts";
export {
  type CutOffCall,
  createToolCallReader,
  type DroppedCall,
  type ToolCallReader,
  type ToolCallReaderOptions,
  type ToolCallReadResult,
} from "./plan/create-tool-call-reader.ts";
export { type FoundReference, findReferences } from "./plan/find-references.ts";
export { type LlmStep, LlmStepSchema } from "./plan/llm-step-schema.ts";
export { type NormalizePlanOptions, type NormalizePlanResult, normalizePlan } from "./plan/normalize-plan.ts";
export type { NormalizeSketchOptions } from "./plan/normalize-sketch.ts";
export { type NormalizeStepOptions, type NormalizeStepResult, normalizeStep } from "./plan/normalize-step.ts";
export type { PlanIssue, PlanIssueCode } from "./plan/plan-issue.ts";
export { PlanStepSchema, type PlanStepType } from "./plan/plan-step-schema.ts";
export { referencesOf } from "./plan/references-of.ts";
export { type ReplyStep, ReplyStepSchema } from "./plan/reply-step-schema.ts";
export { type ResolveReferencesOptions, resolveReferences, type StepResults } from "./plan/resolve-references.ts";
export { StepIdSchema } from "./plan/step-id-schema.ts";
export { type CompactStep, toCompactStep } from "./plan/to-compact-step.ts";
export { type ToolStep, ToolStepSchema } from "./plan/tool-step-schema.ts";
export {
  createPlanValidator,
  type PlanValidator,
  type PlanValidatorOptions,
} from "./validate/create-plan-validator.ts";
export { parsePlan } from "./validate/parse-plan.ts";
export { resolveToolName, type ToolNameResolution } from "./validate/resolve-tool-name.ts";
export { type ValidatePlanOptions, type ValidatePlanResult, validatePlan } from "./validate/validate-plan.ts";
export { type StepValidationContext, type ValidateStepResult, validateStep } from "./validate/validate-step.ts";
