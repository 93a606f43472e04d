/**
 * Validating a whole plan.
 *
 * @module
 */
import { readPlanEntries } from "../plan/normalize-plan.ts";
import type { NormalizeStepOptions } from "../plan/normalize-step.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { type CatalogSource, compileCatalog } from "../tools/compile-catalog.ts";
import { createPlanValidator } from "./create-plan-validator.ts";

/** Options of {@link validatePlan}. */
export interface ValidatePlanOptions extends NormalizeStepOptions {
  /** The most steps a plan may have; later steps are left out with one `too-many-steps` issue. */
  maxSteps?: number;
  /**
   * Append a reply quoting the sink vertices to a DAG sketch (`vertices`, `edges`) that has none.
   *
   * @defaultValue `true`
   */
  sketchReply?: boolean;
}

/** The result of {@link validatePlan}. */
export interface ValidatePlanResult {
  /** The valid steps, in order: every step with an issue of its own, or referring to one that has, is left out. */
  steps: PlanStep[];
  /** Every problem found, in plan order, plan-level problems last. */
  issues: PlanIssue[];
}

/**
 * Normalizes and validates a plan against a tool catalog. The plan may be in
 * any shape `normalizePlan` accepts; the catalog as `compileCatalog`
 * takes it. Each step is checked with `validateStep` in
 * order (so a step referring to a rejected step is rejected too), then the
 * plan as a whole: it must have steps (`empty-plan`) and end with a reply
 * (`no-reply`). Never throws for a bad plan; throws `invalid-catalog` for a
 * bad catalog.
 *
 * The valid steps are returned even when others were rejected, so a caller
 * can run what is sound or re-ask the model with the issues.
 *
 * @param raw - the parsed plan.
 * @param tools - the tool catalog.
 * @param options - `maxSteps`, the knowledge-base tool, the sketch reply.
 * @returns the valid steps and the issues.
 *
 * @example
 * ```ts
 * const { steps, issues } = validatePlan(
 *   [{ type: "tool", name: "arxiv_search", arguments: {} }, { type: "reply", text: "{{s1}}" }],
 *   { arxiv_search: { description: "Search arXiv", input_schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } } },
 * );
 * // issues[0]: { code: "missing-argument", index: 0, stepId: "s1", path: "/steps/0/arguments/query", … }
 * ```
 */
export function validatePlan(
  raw: unknown,
  tools: CatalogSource,
  options: ValidatePlanOptions = {},
): ValidatePlanResult {
  const catalog = compileCatalog(tools);
  const read = readPlanEntries(raw, { ...options, parameterNames: (name) => catalog.parameterNames(name) });
  const plannedIds = new Map<string, number>();
  for (const entry of read.entries) if (!plannedIds.has(entry.step.id)) plannedIds.set(entry.step.id, entry.position);
  const rejectedIds = read.issues.flatMap((issue) => (issue.stepId === undefined ? [] : [issue.stepId]));
  const validator = createPlanValidator(catalog, { ...options, plannedIds, rejectedIds });
  let truncated = false;
  for (const entry of read.entries) {
    if (truncated) break;
    truncated = validator.push(entry.step, entry.position).issues.some((issue) => issue.code === "too-many-steps");
  }
  // A plan that could not be read at all has its reading issue, not an empty-plan one on top.
  const closing = read.count === 0 && read.issues.length > 0 ? [] : validator.end(read.count);
  const stepIssues = [
    ...read.issues.filter((issue) => issue.index >= 0),
    ...validator.issues.filter((issue) => !closing.includes(issue)),
  ];
  // Step issues in plan order (stable: reading issues before validation issues at the same place), then plan-level ones.
  stepIssues.sort((a, b) => a.index - b.index);
  return {
    steps: [...validator.steps],
    issues: [...stepIssues, ...read.issues.filter((issue) => issue.index < 0), ...closing],
  };
}
