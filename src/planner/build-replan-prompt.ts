/**
 * The prompt that asks for a patch after a failure.
 *
 * @module
 */
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import type { CompletedStep, FailedStep } from "./planner-event.ts";
import { renderPlanRules } from "./render-plan-rules.ts";
import { type PlanSectionsInput, renderPlanSections } from "./render-plan-sections.ts";
import { renderStepList } from "./render-step-list.ts";
import { tagBlock } from "./tag-block.ts";

/** What {@link buildReplanPrompt} needs. */
export interface ReplanPromptInput extends PlanSectionsInput {
  /** The steps that ran, with their results. */
  completed: readonly CompletedStep[];
  /** The steps that failed, with their errors. */
  failed: readonly FailedStep[];
  /** The steps that did not run. */
  remaining: readonly PlanStep[];
  /**
   * The most steps the patch may have.
   *
   * @defaultValue `6`
   */
  maxSteps?: number;
}

/** The longest rendering of one result shown to the model. */
const maxResultLength = 1_000;

/**
 * Renders a step result compactly: JSON when short, else a cut preview string.
 *
 * @param result - anything a step returned.
 * @returns a JSON value to embed.
 */
function previewResult(result: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(result);
  } catch {
    text = undefined;
  }
  if (text === undefined) return result === undefined ? null : String(result);
  return text.length <= maxResultLength ? (JSON.parse(text) as unknown) : `${text.slice(0, maxResultLength)}… (cut)`;
}

/**
 * Builds the re-planning prompt (a local re-plan with the failure as
 * context, adjusting the plan rather than starting over): the usual
 * planning sections, then the completed steps with their results, the
 * failed steps with their errors and the steps that did not run. The model is asked for a patch —
 * new steps for what is left, which may reference completed steps by id and
 * never repeat them, avoiding the failed steps' ids.
 *
 * @param input - query, tools, profile, context, the run so far and `maxSteps`.
 * @returns the system and user prompts.
 *
 * @example
 * ```ts
 * const { system, prompt } = buildReplanPrompt({
 *   query, tools, completed: [{ step: s1, result: { value: 47 } }], failed: [{ step: s2, error: "timeout" }], remaining: [s3],
 * });
 * ```
 */
export function buildReplanPrompt(input: ReplanPromptInput): PlanPrompt {
  const sections = renderPlanSections(input);
  const lists: [string, readonly unknown[]][] = [
    ["COMPLETED", input.completed.map(({ step, result }) => ({ ...step, result: previewResult(result) }))],
    ["FAILED", input.failed.map(({ step, error }) => ({ ...step, error }))],
    ["REMAINING", input.remaining],
  ];
  for (const [name, steps] of lists) sections.push(tagBlock(`${name}_STEPS`, renderStepList(steps)));
  // The step limit, the closing reply and the output of the JSON array alone are rules of the system prompt.
  sections.push(`COMPLETED_STEPS ran (results shown), FAILED_STEPS failed (errors shown), REMAINING_STEPS did not run.
Write a patch, a JSON array of new steps that completes USER_QUERY:
- never repeat completed steps; use their results by id ({{s1}}, {{s1.field}}); new steps take ids no step above uses;
- do not reuse or refer to failed steps' ids; replace them (another tool, other arguments) or work around them;
- keep, change or drop the remaining steps.`);
  return { system: renderPlanRules(input.maxSteps ?? 6), prompt: sections.join("\n\n") };
}
