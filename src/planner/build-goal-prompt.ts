/**
 * The prompt of goal understanding.
 *
 * @module
 */
import type { PlanPrompt } from "./build-plan-prompt.ts";
import type { PlannerProfile } from "./planner-event.ts";
import { renderProfile } from "./render-profile.ts";
import { tagBlock } from "./tag-block.ts";

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
 * that `understand()` reads into a `PlanGoal`.
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
  const system = "Before a request is planned, you work out what it really asks for. Output ONLY a JSON object.";
  const sections: string[] = [];
  const profile = renderProfile(input.profile);
  if (profile !== "") sections.push(tagBlock("PROFILE", profile));
  sections.push(tagBlock("USER_QUERY", input.query.trim()));
  sections.push(
    [
      "Work out the request's core objective, the requirements it implies, its constraints (time, place, quality, budget, resources), how success is measured, how uncertain it is and what may go wrong.",
      "Output ONLY a JSON object of this shape (no prose, no code fences):",
      '{"objective":"...","requirements":["..."],"constraints":["..."],"metrics":["..."],"time":"... or null","quality":"high|medium|low","uncertainty":"high|medium|low","risks":["..."],"resources":["..."]}',
    ].join("\n"),
  );
  return { system, prompt: sections.join("\n\n") };
}
