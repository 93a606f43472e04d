/**
 * The prompt of a planning call.
 *
 * @module
 */
import { renderPlanRules } from "./render-plan-rules.ts";
import { type PlanSectionsInput, renderPlanSections } from "./render-plan-sections.ts";
import { tagBlock } from "./tag-block.ts";

/** What {@link buildPlanPrompt} needs. */
export interface PlanPromptInput extends PlanSectionsInput {
  /**
   * The most steps a plan may have.
   *
   * @defaultValue `6`
   */
  maxSteps?: number;
  /** A natural-language chain of thought to turn into the plan (sketch mode). */
  reasoning?: string | undefined;
}

/** A system prompt and a user prompt, as a `PlanModel` takes them. */
export interface PlanPrompt {
  system: string;
  prompt: string;
}

/**
 * Builds the strict planning prompt: the system prompt holds the strong
 * constraints (only a JSON array; only the listed tools; see
 * `renderPlanRules`); the user prompt holds the profile,
 * the query, the available tools (the top-K chosen by `selectTools`, with
 * schemas and read-only annotations) and any extra context, as tagged
 * sections. In sketch mode the chain of thought follows in a `REASONING`
 * section.
 *
 * @param input - query, selected tools, profile, context, reasoning and `maxSteps`.
 * @returns the system and user prompts.
 *
 * @example
 * ```ts
 * const { system, prompt } = buildPlanPrompt({ query: "What is 21*2+5?", tools: selectTools("21*2+5", tools) });
 * for await (const part of model.stream({ system, prompt })) …
 * ```
 */
export function buildPlanPrompt(input: PlanPromptInput): PlanPrompt {
  const sections = renderPlanSections(input);
  const reasoning = input.reasoning?.trim() ?? "";
  if (reasoning !== "") sections.push(tagBlock("REASONING", reasoning));
  sections.push(
    `${reasoning === "" ? "Write" : "Turn the REASONING into"} the plan for USER_QUERY now: only the JSON array.`,
  );
  return { system: renderPlanRules(input.maxSteps ?? 6), prompt: sections.join("\n\n") };
}
