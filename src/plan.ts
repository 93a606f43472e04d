/**
 * plankit/plan — plans as data: the step schemas, reading steps from what
 * models write, normalizing, validating against a catalog, and references
 * between steps.
 *
 * @module
 */
export {
  createToolCallReader,
  type CutOffCall,
  type DroppedCall,
  type ToolCallReader,
  type ToolCallReaderOptions,
  type ToolCallReadResult,
} from "./plan/create-tool-call-reader.ts";
export { CONTEXT_REFERENCE_ROOT, StepIdSchema } from "./plan/step-id-schema.ts";
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
export { createPlanValidator, type PlanValidator, type PlanValidatorOptions } from "./validate/create-plan-validator.ts";
export { parsePlan } from "./validate/parse-plan.ts";
