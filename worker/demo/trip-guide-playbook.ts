/**
 * The playbook of the guided demo.
 *
 * @module
 */
import type { Playbook } from "../../src/decide.ts";

/**
 * The trip guide: collect the destination and the dates, look up facts about
 * the destination, summarize, finish. `answer_question` is allowed
 * playbook-wide, which makes it the query-mode skill for side questions.
 *
 * @example
 * ```ts
 * validatePlaybook(tripGuidePlaybook, tripGuideSkills); // []
 * ```
 */
export const tripGuidePlaybook: Playbook = {
  id: "trip-guide",
  name: "Trip planning intake",
  allowed_skills: ["answer_question"],
  phases: [
    {
      id: "collect",
      description: "Where and when the traveller wants to go",
      allowed_skills: ["read_destination", "read_dates"],
      checkpoints: ["destination", "dates"],
    },
    {
      id: "research",
      description: "Facts about the destination from the knowledge base",
      allowed_skills: ["look_up_facts"],
      checkpoints: ["facts"],
    },
    {
      id: "summarize",
      description: "A summary of the trip",
      allowed_skills: ["summarize_trip"],
      checkpoints: ["summary"],
    },
  ],
};
