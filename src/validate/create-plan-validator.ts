/**
 * A stateful validator for plans that arrive step by step.
 *
 * @module
 */
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { type CatalogSource, compileCatalog } from "../tools/compile-catalog.ts";
import { closingIssue } from "./closing-issue.ts";
import type { ValidatePlanOptions } from "./validate-plan.ts";
import { type ValidateStepResult, validateStep } from "./validate-step.ts";

/** Options of {@link createPlanValidator}. */
export interface PlanValidatorOptions extends ValidatePlanOptions {
  /**
   * The ids of the whole plan with their positions, when the plan is known
   * ahead (as `validatePlan` knows it): a reference to a step that comes
   * later is then a `forward-reference` rather than an unknown step.
   */
  plannedIds?: ReadonlyMap<string, number>;
  /** Ids already known to be invalid (their steps could not be read): references to them are invalid too. */
  rejectedIds?: Iterable<string>;
}

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
   * @param position - its place in the plan, when places were skipped
   *   (a step that could not be read); the order of pushes by default.
   * @returns the canonical step and its issues.
   */
  push(raw: unknown, position?: number): ValidateStepResult;
  /**
   * Checks the plan as a whole once the stream ended: `empty-plan`, `no-reply`.
   *
   * @param count - the places the plan has, when some were not pushed; one more than the last place pushed by default.
   * @returns the plan-level issues (also appended to `issues`).
   */
  end(count?: number): PlanIssue[];
}

/**
 * Creates a validator that takes a plan one step at a time, as a streaming
 * planner produces it. It keeps the accepted steps, the ids of rejected
 * ones, and the position, and calls `validateStep` with them; the catalog is
 * compiled once. Since later steps are not known yet, a reference to a step
 * that has not arrived is `unknown-reference` (not `forward-reference`),
 * unless `plannedIds` says where it comes. `validatePlan` is this validator
 * folded over a whole plan.
 *
 * @param tools - the tool catalog in any accepted shape.
 * @param options - `maxSteps`, the knowledge-base tool, what is known of the plan ahead.
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
export function createPlanValidator(tools: CatalogSource, options: PlanValidatorOptions = {}): PlanValidator {
  const catalog = compileCatalog(tools);
  const { plannedIds, rejectedIds: knownRejected, ...stepOptions } = options;
  const steps: PlanStep[] = [];
  const issues: PlanIssue[] = [];
  const rejectedIds = new Set<string>(knownRejected);
  const stepAt = new Map<number, PlanStep>();
  let next = 0;
  let sawReply = false;
  return {
    steps,
    issues,
    push(raw, position = next) {
      const result = validateStep(raw, {
        ...stepOptions,
        tools: catalog,
        steps,
        index: position,
        rejectedIds,
        ...(plannedIds === undefined ? {} : { plannedIds }),
      });
      next = Math.max(next, position + 1);
      if (result.step !== undefined) stepAt.set(position, result.step);
      if (
        result.step !== undefined &&
        result.step.type === "reply" &&
        !result.issues.some((issue) => issue.code === "too-many-steps")
      )
        sawReply = true;
      if (result.step !== undefined && result.issues.length === 0) steps.push(result.step);
      else {
        const id = result.step?.id ?? result.issues.find((issue) => issue.stepId !== undefined)?.stepId;
        if (id !== undefined) rejectedIds.add(id);
        issues.push(...result.issues);
      }
      return result;
    },
    end(count = next) {
      const issue = closingIssue(count, sawReply, (index) => stepAt.get(index), options.maxSteps);
      if (issue === undefined) return [];
      issues.push(issue);
      return [issue];
    },
  };
}
