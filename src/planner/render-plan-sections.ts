/**
 * The tagged sections shared by the planning prompts.
 *
 * @module
 */
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";
import type { PlannerProfile } from "./planner-event.ts";
import { renderProfile } from "./render-profile.ts";
import { renderToolList } from "./render-tool-list.ts";
import { tagBlock } from "./tag-block.ts";

/** What {@link renderPlanSections} renders. */
export interface PlanSectionsInput {
  /** The user's request. */
  query: string;
  /** The tools the model may use, best first; no `AVAILABLE_TOOLS` section without them. */
  tools?: readonly ToolDescriptor[] | undefined;
  /** A profile object (rendered with `renderProfile`) or a ready system prompt. */
  profile?: PlannerProfile | string | undefined;
  /** Extra context (a goal from `understandRequest()`, memory). */
  context?: string | undefined;
}

/**
 * Renders the `PROFILE`, `USER_QUERY`, `AVAILABLE_TOOLS` and `CONTEXT`
 * sections of a planning prompt, in that order; the profile and the context
 * are left out when absent or blank, the tools when not given.
 *
 * @param input - query, tools, profile and context.
 * @returns the sections, one per entry.
 *
 * @example
 * ```ts
 * renderPlanSections({ query: "21*2+5?", tools: [] }).join("\n\n");
 * // "<USER_QUERY>\n21*2+5?\n</USER_QUERY>\n\n<AVAILABLE_TOOLS>\n[]\n</AVAILABLE_TOOLS>"
 * ```
 */
export function renderPlanSections(input: PlanSectionsInput): string[] {
  const sections: string[] = [];
  const profile = renderProfile(input.profile);
  if (profile !== "") sections.push(tagBlock("PROFILE", profile));
  sections.push(tagBlock("USER_QUERY", input.query.trim()));
  if (input.tools !== undefined) sections.push(tagBlock("AVAILABLE_TOOLS", renderToolList(input.tools)));
  const context = input.context?.trim() ?? "";
  if (context !== "") sections.push(tagBlock("CONTEXT", context));
  return sections;
}
