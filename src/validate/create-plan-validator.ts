/**
 * A stateful validator for plans that arrive step by step.
 *
 * @module
 */
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { compileCatalog, type CatalogSource } from "../tools/compile-catalog.ts";
import type { ValidatePlanOptions } from "./validate-plan.ts";
import { validateStep, type ValidateStepResult } from "./validate-step.ts";

/** A streaming plan validator; see {@link createPlanValidator}. */
export interface PlanValidator {
  /** The steps accepted so far. */
  readonly steps: readonly PlanStep[];
  /** Every issue reported so far, by `push` and `end`. */
  readonly issues: readonly PlanIssue[];
  /**
   * Validates the next step; a valid one is appended to `steps`.
   *
   * @param raw - the step, raw or canonical.
   * @returns the canonical step and its issues.
   */
  push(raw: unknown): ValidateStepResult;
  /**
   * Checks the plan as a whole once the stream ended: `empty-plan`, `no-reply`.
   *
   * @returns the plan-level issues (also appended to `issues`).
   */
  end(): PlanIssue[];
}

/**
 * Creates a validator that takes a plan one step at a time, as a streaming
 * planner produces it. It keeps the accepted steps, the ids of rejected
 * ones, and the position, and calls `validateStep` with them; the catalog is
 * compiled once. Since later steps are not known yet, a reference to a step
 * that has not arrived is `unknown-reference` (not `forward-reference`).
 *
 * @param tools - the tool catalog in any accepted shape.
 * @param options - `maxSteps`, the knowledge-base tool.
 * @returns the validator.
 *
 * @example
 * ```ts
 * const validator = createPlanValidator(tools, { maxSteps: 8 });
 * for await (const raw of steps) {
 *   const { issues } = validator.push(raw);
 *   if (issues.length > 0) console.warn(issues);
 * }
 * const endIssues = validator.end();
 * ```
 */
export function createPlanValidator(tools: CatalogSource, options: ValidatePlanOptions = {}): PlanValidator {
  const catalog = compileCatalog(tools);
  const steps: PlanStep[] = [];
  const issues: PlanIssue[] = [];
  const rejectedIds = new Set<string>();
  let count = 0;
  let sawReply = false;
  let last: PlanStep | undefined;
  return {
    steps,
    issues,
    push(raw) {
      const result = validateStep(raw, { ...options, tools: catalog, steps, index: count, rejectedIds });
      count++;
      last = result.step;
      if (result.step !== undefined && result.step.type === "reply" && !result.issues.some((issue) => issue.code === "too-many-steps")) sawReply = true;
      if (result.step !== undefined && result.issues.length === 0) steps.push(result.step);
      else {
        const id = result.step?.id ?? result.issues.find((issue) => issue.stepId !== undefined)?.stepId;
        if (id !== undefined) rejectedIds.add(id);
        issues.push(...result.issues);
      }
      return result;
    },
    end() {
      const found: PlanIssue[] = [];
      if (count === 0) {
        found.push({ code: "empty-plan", index: 0, path: "/steps", message: "The plan has no steps (/steps)" });
      } else if (!sawReply) {
        const index = Math.min(count, options.maxSteps ?? count) - 1;
        const path = `/steps/${index}`;
        const detail = last === undefined || index !== count - 1 ? "" : `; its last step "${last.id}" is ${last.type === "llm" ? "an" : "a"} ${last.type} step`;
        const issue: PlanIssue = { code: "no-reply", index, path, message: `The plan does not end with a reply step${detail} (${path})` };
        if (last !== undefined && index === count - 1) issue.stepId = last.id;
        found.push(issue);
      }
      issues.push(...found);
      return found;
    },
  };
}
