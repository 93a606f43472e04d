/**
 * Validating one plan step as it streams in.
 *
 * @module
 */

import { CONTEXT_REFERENCE_ROOT } from "../plan/context-reference-root.ts";
import { findReferences } from "../plan/find-references.ts";
import { type NormalizeStepOptions, normalizeStep } from "../plan/normalize-step.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { stepIssue } from "../plan/step-issue.ts";
import { closestName } from "../shared/closest-name.ts";
import { countOf } from "../shared/count-of.ts";
import { describeValue } from "../shared/describe-value.ts";
import { type CatalogSource, compileCatalog } from "../tools/compile-catalog.ts";
import { outputPathProblem } from "./output-path-problem.ts";
import { resolveCatalogTool } from "./resolve-tool-name.ts";

/**
 * What {@link validateStep} needs to know about the plan so far. Keep passing
 * the same `steps` array (appending accepted steps) and the same `tools`
 * object: the catalog is compiled once and the id index of `steps` is
 * extended, not rebuilt, so each call costs only the step's own checks.
 */
export interface StepValidationContext extends NormalizeStepOptions {
  /** The tool catalog in any accepted shape (compiled and cached on first use). */
  tools: CatalogSource;
  /** The accepted steps before this one, in order. */
  steps: readonly PlanStep[];
  /**
   * The step's position in the plan (issue `index`, default id `s<index + 1>`).
   *
   * @defaultValue `steps.length`
   */
  index?: number;
  /** The most steps a plan may have; a step at `index >= maxSteps` is `too-many-steps`. */
  maxSteps?: number;
  /** Ids of earlier steps that were rejected: references to them are `unknown-reference` naming why. */
  rejectedIds?: ReadonlySet<string>;
  /** Every id in the whole plan with its position, when known (whole-plan validation): references to later steps are then `forward-reference`. */
  plannedIds?: ReadonlyMap<string, number>;
}

/** The result of {@link validateStep}. */
export interface ValidateStepResult {
  /** The canonical step, whenever the input could be normalized (valid only when `issues` is empty). */
  step?: PlanStep;
  /** The problems; empty when the step is valid. */
  issues: PlanIssue[];
}

interface StepIndex {
  length: number;
  last: PlanStep | undefined;
  byId: Map<string, PlanStep>;
  reply: PlanStep | undefined;
}

const indexes = new WeakMap<readonly PlanStep[], StepIndex>();

/**
 * Returns the id index of `steps`, extending a cached one when the array only grew.
 *
 * @param steps - the accepted steps.
 * @returns the index.
 */
function indexOf(steps: readonly PlanStep[]): StepIndex {
  let index = indexes.get(steps);
  // The array was cut or changed before the indexed length (of no steps, `steps[-1]` and `last` are both undefined).
  if (index === undefined || index.length > steps.length || steps[index.length - 1] !== index.last) {
    index = { length: 0, last: undefined, byId: new Map(), reply: undefined };
    indexes.set(steps, index);
  }
  for (const step of steps.slice(index.length)) {
    // A hole or an `undefined` entry (from plain JavaScript) holds no step.
    if (step === undefined) continue;
    if (!index.byId.has(step.id)) index.byId.set(step.id, step);
    if (step.type === "reply") index.reply ??= step;
  }
  index.length = steps.length;
  index.last = steps[steps.length - 1];
  return index;
}

/**
 * Validates one step given the steps accepted before it: structure (via
 * `normalizeStep`, so raw model output in any accepted shape is fine), the
 * `maxSteps` limit, that no step follows the reply, a unique id, that the tool
 * exists (a name the catalog lacks, such as `math_factorial`, resolves to the
 * one catalog tool it equals up to case and `.`, `_`, `-` — see
 * `resolveToolName`; several matches are `unknown-tool`), the arguments against the tool's full JSON Schema, and that every
 * reference and `dependsOn` entry names an earlier accepted step — and, when
 * that step's tool declares an `outputSchema`, a path the schema declares.
 * References to the run context (`{{context.key}}`) are not checked.
 *
 * Reference placeholders in arguments are not judged as values: a string
 * that is exactly one reference may hold any value, a string with references
 * inside text is a string of unknown content.
 *
 * @param raw - the step, raw or canonical.
 * @param context - the catalog, the accepted steps, the position and limits.
 * @returns the canonical step and the issues.
 *
 * @example
 * ```ts
 * const steps: PlanStep[] = [];
 * for (const raw of streamedSteps) {
 *   const { step, issues } = validateStep(raw, { tools, steps, maxSteps: 8 });
 *   if (step && issues.length === 0) steps.push(step);
 * }
 * ```
 */
export function validateStep(raw: unknown, context: StepValidationContext): ValidateStepResult {
  const position = context.index ?? context.steps.length;
  const normalized = normalizeStep(raw, position, context);
  let step = normalized.step;
  if (step === undefined) return normalized;
  const catalog = compileCatalog(context.tools);
  let ambiguous: string[] | undefined;
  if (step.type === "tool") {
    const resolution = resolveCatalogTool(step.name, catalog);
    if (resolution.kind === "found" && resolution.name !== step.name) step = { ...step, name: resolution.name };
    else if (resolution.kind === "ambiguous") ambiguous = resolution.names;
  }
  const issues: PlanIssue[] = [];
  /** Reports a problem at `at` inside the step (`/arguments/city`), naming the step first. */
  const report = (code: PlanIssue["code"], at: string, message: string): void => {
    issues.push(stepIssue(code, position, step.id, `Step "${step.id}" ${message}`, at));
  };

  if (context.maxSteps !== undefined && position >= context.maxSteps) {
    report("too-many-steps", "", `exceeds the limit of ${countOf(context.maxSteps, "step")}`);
    return { step, issues };
  }
  const earlier = indexOf(context.steps);
  if (earlier.reply !== undefined) {
    report("invalid-step", "", `comes after the reply step "${earlier.reply.id}"; the reply must be the last step`);
  }
  if (earlier.byId.has(step.id) || context.rejectedIds?.has(step.id)) {
    report("duplicate-id", "/id", "reuses the id of an earlier step");
  }

  const field = step.type === "tool" ? "arguments" : step.type === "llm" ? "prompt" : "text";
  const references = findReferences(
    step.type === "tool" ? step.arguments : step.type === "llm" ? step.prompt : step.text,
    `/${field}`,
  );
  if (step.type === "tool") {
    const tool = catalog.get(step.name);
    if (tool === undefined) {
      const names = catalog.tools.map((candidate) => candidate.name);
      const suggestion = closestName(step.name, names);
      const hint =
        ambiguous !== undefined
          ? `; it matches several tools: ${ambiguous.map((name) => `"${name}"`).join(", ")}`
          : suggestion !== undefined
            ? `; did you mean "${suggestion}"?`
            : names.length === 0
              ? "; the catalog is empty"
              : `; available: ${names.slice(0, 12).join(", ")}${names.length > 12 ? ", …" : ""}`;
      report("unknown-tool", "/name", `uses unknown tool ${describeValue(step.name)}${hint}`);
    } else {
      const exact = new Set<string>();
      const embedded = new Set<string>();
      for (const reference of references)
        (reference.exact ? exact : embedded).add(reference.pointer.slice("/arguments".length));
      for (const problem of catalog.checkArguments(step.name, step.arguments, { exact, embedded })) {
        report(problem.code, `/arguments${problem.pointer}`, `(tool "${step.name}"): ${problem.text}`);
      }
    }
  }

  const checkTarget = (id: string, path: string, describe: string): PlanStep | undefined => {
    if (id === step.id) {
      report("forward-reference", path, `${describe} itself`);
      return undefined;
    }
    const target = earlier.byId.get(id);
    if (target !== undefined) return target;
    const later = context.plannedIds?.get(id);
    if (later !== undefined && later > position) {
      report(
        "forward-reference",
        path,
        `${describe} step "${id}", which comes later; a step may only use steps before it`,
      );
    } else if (context.rejectedIds?.has(id) || later !== undefined) {
      report("unknown-reference", path, `${describe} step "${id}", which is invalid`);
    } else {
      report("unknown-reference", path, `${describe} unknown step "${id}"`);
    }
    return undefined;
  };
  for (const reference of references) {
    if (reference.id === CONTEXT_REFERENCE_ROOT) continue;
    const target = checkTarget(reference.id, reference.pointer, "references");
    if (target?.type !== "tool") continue;
    const outputSchema = catalog.get(target.name)?.outputSchema;
    if (outputSchema === undefined) continue;
    const problem = outputPathProblem(outputSchema, reference.path);
    if (problem !== undefined) {
      const missing = reference.path.slice(0, problem.depth + 1).join(".");
      const available = problem.available.length === 0 ? "" : ` (available: ${problem.available.join(", ")})`;
      report(
        "unknown-reference",
        reference.pointer,
        `references ${reference.source}, but the output of tool "${target.name}" declares no "${missing}"${available}`,
      );
    }
  }
  for (const [at, id] of (step.dependsOn ?? []).entries()) checkTarget(id, `/dependsOn/${at}`, "depends on");
  return { step, issues };
}
