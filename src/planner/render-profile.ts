/**
 * Rendering a planner profile into a system prompt.
 *
 * @module
 */
import type { PlannerProfile } from "./planner-event.ts";

/**
 * Renders a profile into the system prompt that introduces the agent to the
 * model: who it is, which role it plays, which language it answers in, then
 * its goals and constraints as lists. Empty lists and blank entries are left out.
 * A ready system prompt is trimmed; no profile gives `""`.
 *
 * @param profile - name, role, language, goals and constraints; or a ready system prompt.
 * @returns the system prompt.
 *
 * @example
 * ```ts
 * renderProfile({ name: "ResearchAgent", role: "planner", language: "zh" });
 * // "You are ResearchAgent, acting as planner. Reply in zh."
 * ```
 */
export function renderProfile(profile: PlannerProfile | string | undefined): string {
  if (profile === undefined) return "";
  if (typeof profile === "string") return profile.trim();
  const lines: string[] = [];
  const name = profile.name.trim();
  const role = profile.role.trim();
  let intro = name === "" ? "You are an assistant" : `You are ${name}`;
  if (role !== "") intro += `, acting as ${role}`;
  intro += ".";
  const language = profile.language?.trim() ?? "";
  if (language !== "") intro += ` Reply in ${language}.`;
  lines.push(intro);
  const list = (title: string, items: readonly string[] | undefined): void => {
    const kept = (items ?? []).map((item) => item.trim()).filter((item) => item !== "");
    if (kept.length === 0) return;
    lines.push(`${title}:`, ...kept.map((item) => `- ${item}`));
  };
  list("Goals", profile.goals);
  list("Constraints", profile.constraints);
  return lines.join("\n");
}
