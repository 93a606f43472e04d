/**
 * The prompt of goal understanding.
 *
 * @module
 */
import type { PlanPrompt } from "./build-plan-prompt.ts";
import type { PlannerProfile } from "./planner-event.ts";
import { renderPlanSections } from "./render-plan-sections.ts";

/** What {@link buildGoalPrompt} needs. */
export interface GoalPromptInput {
  /** The user's request. */
  query: string;
  /** A profile object or a ready system prompt (for the language). */
  profile?: PlannerProfile | string | undefined;
}

/**
 * Builds the goal-understanding prompt: the model names the core objective,
 * implicit requirements, constraints (time, place, quality, budget,
 * resources), success metrics, uncertainty and risks, as one JSON object
 * that `understandRequest()` reads into a `PlanGoal`.
 *
 * @param input - the query and an optional profile.
 * @returns the system and user prompts.
 *
 * @example
 * ```ts
 * const { system, prompt } = buildGoalPrompt({ query: "Analyse our Q1-Q2 sales in North America" });
 * ```
 */
export function buildGoalPrompt(input: GoalPromptInput): PlanPrompt {
  const sections = renderPlanSections({ query: input.query, profile: input.profile });
  sections.push(`Name the request's core objective, implied requirements, constraints (time, place, quality, budget, resources), success metrics, uncertainty and risks, as this JSON object alone (no prose, no code fences):
{"objective":"...","requirements":["..."],"constraints":["..."],"metrics":["..."],"time":"... or null","quality":"high|medium|low","uncertainty":"high|medium|low","risks":["..."],"resources":["..."]}`);
  return {
    system: "Before a request is planned, you work out what it really asks for. Output ONLY a JSON object.",
    prompt: sections.join("\n\n"),
  };
}
