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
  /** Extra context (a goal from `understand()`, memory). */
  context?: string | undefined;
}

/** The rules of native tool-call planning: the tools themselves travel natively, not in the prompt. */
const rules = [
  "Answer the request by calling the tools you are given, then answer in plain text.",
  "Calls you make in one turn run at the same time, as soon as each call's arguments are complete: make every independent call at once.",
  'Every call gets an id in the order you make it, counting across the whole conversation: s1, s2, s3, … To pass the result of an earlier call as an argument, even one made in the same turn, write the argument as "{{s1}}" or "{{s1.field}}"; that call then waits for s1.',
  "Use only facts from the tool results; when a tool fails, say so. When you have what you need, answer without calling tools.",
].join("\n");

/**
 * Builds the prompt of `LLMPlanner`'s `"tools"` mode: a short system prompt
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
  const profile =
    input.profile === undefined
      ? ""
      : typeof input.profile === "string"
        ? input.profile.trim()
        : renderProfile(input.profile);
  const context = input.context?.trim() ?? "";
  return {
    system: profile === "" ? rules : `${profile}\n\n${rules}`,
    prompt: context === "" ? input.query.trim() : `${input.query.trim()}\n\n${tagBlock("CONTEXT", context)}`,
  };
}
