/**
 * The re-ask after a plan that could not be read or lost steps.
 *
 * @module
 */
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { countOf } from "../shared/count-of.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import { renderIssueList } from "./render-issue-list.ts";
import { renderStepList } from "./render-step-list.ts";
import { tagBlock } from "./tag-block.ts";

/** What {@link buildRepairPrompt} needs. */
export interface RepairPromptInput {
  /** The prompt of the call being repaired. */
  base: PlanPrompt;
  /** The model's answer to it. */
  output: string;
  /** What was wrong with the answer. */
  issues: readonly PlanIssue[];
  /** The steps accepted so far, which the repair continues. */
  accepted: readonly PlanStep[];
  /** How many more steps the plan may take, the reply included. */
  stepsLeft: number;
}

/** The longest part of the previous answer shown back to the model. */
const maxOutputLength = 6_000;

/**
 * Builds the repair re-ask: the original prompt, followed by the
 * model's previous answer, the issues found in it (code, message, JSON
 * pointer) and the steps already accepted. The model is asked for the
 * steps that come after the accepted ones — so accepted steps, which may
 * already be running, are kept and not duplicated.
 *
 * @param input - the original prompt, the answer, the issues, the accepted steps and the budget left.
 * @returns the system and user prompts of the re-ask.
 *
 * @example
 * ```ts
 * const repair = buildRepairPrompt({ base, output: text, issues, accepted: steps, stepsLeft: 4 });
 * ```
 */
export function buildRepairPrompt(input: RepairPromptInput): PlanPrompt {
  const { accepted } = input;
  const trimmed = input.output.trim();
  const sections = [
    input.base.prompt,
    tagBlock(
      "PREVIOUS_ANSWER",
      trimmed === "" ? "(empty)" : trimmed.length > maxOutputLength ? `${trimmed.slice(0, maxOutputLength)}…` : trimmed,
    ),
    tagBlock("ISSUES", renderIssueList(input.issues)),
  ];
  if (accepted.length > 0) sections.push(tagBlock("ACCEPTED_STEPS", renderStepList(accepted)));
  sections.push(
    `Fix the ISSUES of your previous answer: output ONLY ${
      accepted.length === 0
        ? "the corrected JSON array of the whole plan"
        : "a JSON array of the steps that follow ACCEPTED_STEPS, which are kept (do not repeat them; new steps take new ids)"
    }, ending with a reply step. Use at most ${countOf(input.stepsLeft, "more step")}.`,
  );
  return { system: input.base.system, prompt: sections.join("\n\n") };
}
