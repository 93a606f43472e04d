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
  sections.push(
    "Think it through, in order: 1. the goal: what the user ultimately wants; 2. the separate steps; 3. which steps need an earlier step's result; 4. each step's tool from AVAILABLE_TOOLS, with its arguments; 5. what each step needs and produces.",
  );
  return {
    system:
      "You are a planning module. Work out how to carry out the request with the available tools, step by step in plain language. Do not write JSON or code.",
    prompt: sections.join("\n\n"),
  };
}
