/**
 * The offline demo model's choice in a guided conversation.
 *
 * @module
 */
import { describeGoal } from "../../src/decide.ts";
import { findDestination } from "./find-destination.ts";
import { findTravelDates } from "./find-travel-dates.ts";

/** A skill as the planner prompt lists it. */
interface ListedSkill {
  name: string;
  provides: string[];
}

/**
 * The skills listed under "Available skills:".
 *
 * @param prompt - the planner prompt.
 * @returns the skills and what each provides.
 */
function readSkills(prompt: string): ListedSkill[] {
  const start = prompt.indexOf("\nAvailable skills:\n");
  if (start === -1) return [];
  const skills: ListedSkill[] = [];
  for (const line of prompt.slice(start + "\nAvailable skills:\n".length).split("\n")) {
    const match = /^- ([^:\s]+):.*?(?: \(provides: ([^)]*)\))?$/u.exec(line);
    if (match === null) break;
    skills.push({ name: match[1] ?? "", provides: match[2] === undefined ? [] : match[2].split(", ") });
  }
  return skills;
}

/**
 * Answers the `llm_planner` strategy's prompt like a model would, with
 * keyword rules over the user's message: a skill that provides `destination`
 * when the message names a place, one that provides `dates` when it gives
 * dates, one whose provided goal the message names; otherwise `respond`,
 * because the message gives nothing a skill could record. Always with a reason.
 *
 * @param prompt - the planner prompt (see `buildPlannerPrompt`).
 * @returns one JSON object: `{ action, skill?, reason }`.
 * @example
 * ```ts
 * chooseGuidedAction("Phase: collect\nMissing goals: destination, dates\nAvailable skills:\n- read_destination: … (provides: destination)\nUser message: to Tokyo\nState: {}");
 * // '{"action":"call_skill","skill":"read_destination","reason":"the message names a destination (Tokyo)"}'
 * ```
 */
export function chooseGuidedAction(prompt: string): string {
  const message = /^User message: ([\s\S]*?)\nState: /mu.exec(prompt)?.[1] ?? "";
  const missing = /^Missing goals: (.*)$/mu.exec(prompt)?.[1] ?? "none";
  const skills = readSkills(prompt);
  const choose = (skill: ListedSkill | undefined, reason: string): string | undefined =>
    skill === undefined ? undefined : JSON.stringify({ action: "call_skill", skill: skill.name, reason });
  const destination = findDestination(message);
  const dates = findTravelDates(message);
  const words = ` ${message.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ")} `;
  return (
    (destination === undefined
      ? undefined
      : choose(
          skills.find((skill) => skill.provides.includes("destination")),
          `the message names a destination (${destination})`,
        )) ??
    (dates === undefined
      ? undefined
      : choose(
          skills.find((skill) => skill.provides.includes("dates")),
          `the message gives travel dates (${dates.from}${dates.to === undefined ? "" : ` to ${dates.to}`})`,
        )) ??
    skills
      .flatMap((skill) =>
        skill.provides
          .filter((goal) => words.includes(` ${describeGoal(goal)} `))
          .map((goal) => choose(skill, `the message mentions the ${describeGoal(goal)}`)),
      )
      .find((answer) => answer !== undefined) ??
    JSON.stringify({
      action: "respond",
      reason: `the message gives none of the missing goals (${missing}), so ask the traveller for them`,
    })
  );
}
