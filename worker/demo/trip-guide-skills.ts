/**
 * The skills of the guided demo.
 *
 * @module
 */
import type { Skill } from "../../src/decide.ts";

/**
 * The trip guide's skills, each run by the demo tool of the same name:
 * `read_destination` and `read_dates` read the traveller's message,
 * `look_up_facts` needs the destination, `summarize_trip` needs everything,
 * and `answer_question` is the query skill for side questions (query mode).
 *
 * @example
 * ```ts
 * createGuidedConversation({ playbook: tripGuidePlaybook, skills: tripGuideSkills, registry: createGuideTools() });
 * ```
 */
export const tripGuideSkills: readonly Skill[] = [
  {
    name: "read_destination",
    description: "Read where the traveller wants to go from their message",
    outputs: { provides: ["destination"] },
  },
  {
    name: "read_dates",
    description: "Read the travel dates from the traveller's message",
    outputs: { provides: ["dates"] },
  },
  {
    name: "look_up_facts",
    description: "Look up facts about the destination in the knowledge base",
    meta: { requires: { all: ["destination"] } },
    outputs: { provides: ["facts"] },
  },
  {
    name: "summarize_trip",
    description: "Summarize the trip with the facts and their sources",
    meta: { requires: { all: ["destination", "dates", "facts"] } },
    outputs: { provides: ["summary"] },
  },
  {
    name: "answer_question",
    description: "Answer a side question from the knowledge base",
    meta: { query: true },
    outputs: { provides: ["answer"] },
  },
];
