/**
 * The prompt of native tool-call planning.
 *
 * @module
 */

import type { PlanPrompt } from "./build-plan-prompt.ts";
import type { PlannerProfile } from "./planner-event.ts";
import { renderProfile } from "./render-profile.ts";
import { tagBlock } from "./tag-block.ts";

/** What {@link buildToolCallPrompt} renders. */
export interface ToolCallPromptInput {
  /** The user's request. */
  query: string;
  /** A profile object or a ready system prompt. */
  profile?: PlannerProfile | string | undefined;
  /** Extra context (a goal from `understandRequest()`, memory). */
  context?: string | undefined;
}

/** The rules of native tool-call planning: the tools themselves travel natively, not in the prompt. */
const rules = `Answer by calling the given tools, then in plain text.
A turn's calls run at once, each as soon as its arguments are complete: make independent calls together.
Calls are numbered s1, s2, s3, … in the order made, across the conversation. To pass an earlier call's result as an argument, even one from the same turn, write "{{s1}}" or "{{s1.field}}"; the call then waits for s1.
Use only facts from tool results; say when a tool fails. Once you have what you need, answer without tools.`;

/**
 * Builds the prompt of `ToolCallPlanner`: a short system prompt
 * (the profile, then the rules of calling tools natively with `sN`
 * references) and the request with its context. The tools are offered
 * natively, with their JSON Schemas, not in the prompt.
 *
 * @param input - query, profile and context.
 * @returns the system and user prompts.
 *
 * @example
 * ```ts
 * const { system, prompt } = buildToolCallPrompt({ query: "Weather in Paris and Tokyo?" });
 * ```
 */
export function buildToolCallPrompt(input: ToolCallPromptInput): PlanPrompt {
  const profile = renderProfile(input.profile);
  const context = input.context?.trim() ?? "";
  return {
    system: profile === "" ? rules : `${profile}\n\n${rules}`,
    prompt: context === "" ? input.query.trim() : `${input.query.trim()}\n\n${tagBlock("CONTEXT", context)}`,
  };
}
