/**
 * Validating a whole plan.
 *
 * @module
 */
import { readPlanEntries } from "../plan/normalize-plan.ts";
import type { NormalizeStepOptions } from "../plan/normalize-step.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { compileCatalog, type CatalogSource } from "../tools/compile-catalog.ts";
import { validateStep } from "./validate-step.ts";

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
 * any shape `normalizePlan` accepts; the catalog in any shape
 * `normalizeCatalog` accepts. Each step is checked with `validateStep` in
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
export function validatePlan(raw: unknown, tools: CatalogSource, options: ValidatePlanOptions = {}): ValidatePlanResult {
  const catalog = compileCatalog(tools);
  const read = readPlanEntries(raw, { ...options, parameterNames: (name) => catalog.parameterNames(name) });
  const stepIssues = new Map<number, PlanIssue[]>();
  const planIssues: PlanIssue[] = [];
  const rejectedIds = new Set<string>();
  for (const issue of read.issues) {
    if (issue.stepId !== undefined) rejectedIds.add(issue.stepId);
    if (issue.index < 0) planIssues.push(issue);
    else stepIssues.set(issue.index, [...(stepIssues.get(issue.index) ?? []), issue]);
  }
  const plannedIds = new Map<string, number>();
  for (const entry of read.entries) if (!plannedIds.has(entry.step.id)) plannedIds.set(entry.step.id, entry.position);

  const steps: PlanStep[] = [];
  let sawReply = false;
  let truncated = false;
  for (const entry of read.entries) {
    if (options.maxSteps !== undefined && entry.position >= options.maxSteps && truncated) break;
    const result = validateStep(entry.step, { ...options, tools: catalog, steps, index: entry.position, rejectedIds, plannedIds });
    if (result.issues.some((issue) => issue.code === "too-many-steps")) truncated = true;
    else if (entry.step.type === "reply") sawReply = true;
    if (result.issues.length === 0) steps.push(entry.step);
    else {
      rejectedIds.add(entry.step.id);
      stepIssues.set(entry.position, [...(stepIssues.get(entry.position) ?? []), ...result.issues]);
    }
  }

  if (read.count === 0 && read.issues.length === 0) {
    planIssues.push({ code: "empty-plan", index: 0, path: "/steps", message: "The plan has no steps (/steps)" });
  } else if (!sawReply && read.count > 0) {
    const last = Math.min(read.count, options.maxSteps ?? read.count) - 1;
    const lastStep = read.entries.find((entry) => entry.position === last)?.step;
    const path = `/steps/${last}`;
    const detail = lastStep === undefined ? "" : `; its last step "${lastStep.id}" is ${lastStep.type === "llm" ? "an" : "a"} ${lastStep.type} step`;
    const issue: PlanIssue = { code: "no-reply", index: last, path, message: `The plan does not end with a reply step${detail} (${path})` };
    if (lastStep !== undefined) issue.stepId = lastStep.id;
    planIssues.push(issue);
  }
  const issues = [...stepIssues.entries()].sort(([a], [b]) => a - b).flatMap(([, list]) => list);
  return { steps, issues: [...issues, ...planIssues] };
}
