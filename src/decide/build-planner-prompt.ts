/**
 * The prompt of the `llm_planner` strategy.
 *
 * @module
 */
import type { StrategyContext } from "./decision-strategy.ts";

const maxStateLength = 8_000;

const system = [
  "You choose the next action of a guided conversation that runs in phases.",
  "Answer with exactly one JSON object and nothing else, in one of these forms:",
  '{"action":"call_skill","skill":"<one of the available skills>","reason":"<why>"}',
  '{"action":"respond","reason":"<why>"}',
  'Use "call_skill" only with a skill from the list of available skills. Use "respond" when the best next step is to talk to the user (for example to ask for something no skill can get).',
  'The "reason" is required: one sentence that names the goal or the user message that motivates the choice.',
].join("\n");

/**
 * Builds the system prompt and prompt that ask a model to choose among the
 * available skills: the phase, its missing goals, each skill with its
 * description and what it provides, the user's latest message and the state
 * (as JSON, cut at 8 000 characters).
 *
 * @param context - the strategy context.
 * @returns the system prompt and the prompt.
 * @example
 * ```ts
 * const { system, prompt } = buildPlannerPrompt(context);
 * ```
 */
export function buildPlannerPrompt(context: StrategyContext): { system: string; prompt: string } {
  const { phase, available, missingGoals, state, message } = context;
  const skills = available.map((skill) => {
    const provides = skill.outputs?.provides ?? [];
    const description = skill.description ?? "";
    return `- ${skill.name}: ${description}${provides.length > 0 ? ` (provides: ${provides.join(", ")})` : ""}`;
  });
  let stateText = JSON.stringify({
    profile: state.profile ?? {},
    data: state.data ?? {},
    decisions: state.decisions ?? {},
  });
  if (stateText.length > maxStateLength) stateText = `${stateText.slice(0, maxStateLength)}… (cut)`;
  const lines = [
    `Phase: ${phase.id}${phase.description === undefined ? "" : ` — ${phase.description}`}`,
    `Missing goals: ${missingGoals.length === 0 ? "none" : missingGoals.join(", ")}`,
    "Available skills:",
    ...skills,
  ];
  if (message !== undefined) lines.push(`User message: ${message}`);
  lines.push(`State: ${stateText}`);
  return { system, prompt: lines.join("\n") };
}
