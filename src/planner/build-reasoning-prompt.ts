/**
 * The first, chain-of-thought call of sketch mode.
 *
 * @module
 */
import type { PlanPrompt } from "./build-plan-prompt.ts";
import { type PlanSectionsInput, renderPlanSections } from "./render-plan-sections.ts";

/**
 * Builds the chain-of-thought prompt of two-stage planning: the
 * model reasons in plain language about the goal, the steps, their
 * dependencies, the tool for each step and each step's inputs and outputs.
 * The second call (`buildPlanPrompt` with `reasoning`) turns that text into
 * the structured plan.
 *
 * @param input - query, selected tools, profile and context.
 * @returns the system and user prompts.
 *
 * @example
 * ```ts
 * const reasoning = await readText(model.stream(buildReasoningPrompt({ query, tools })));
 * const plan = buildPlanPrompt({ query, tools, reasoning });
 * ```
 */
export function buildReasoningPrompt(input: PlanSectionsInput): PlanPrompt {
  const sections = renderPlanSections(input);
  sections.push(`Think it through, in order:
1. Goal: what does the user ultimately want?
2. Steps: which separate steps does it take?
3. Dependencies: which steps need the result of an earlier step?
4. Tools: which tool from AVAILABLE_TOOLS does each step use, with which arguments?
5. Inputs and outputs: what does each step need, and produce?`);
  return {
    system:
      "You are a planning module. Work out how to carry out the request with the available tools, step by step in plain language. Do not write JSON or code.",
    prompt: sections.join("\n\n"),
  };
}
