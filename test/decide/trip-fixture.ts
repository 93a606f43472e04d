import type { DecisionState } from "../../src/decide/decision-state.ts";
import type { Playbook } from "../../src/decide/playbook.ts";
import type { Skill } from "../../src/decide/skill.ts";

/** A travel-booking skill registry used across the decision engine suites. */
export const tripSkills: Skill[] = [
  { name: "ask_name", description: "Ask the traveller's name", outputs: { provides: ["profile.name"] } },
  { name: "ask_destination", description: "Ask where to go", outputs: { provides: ["destination"] } },
  { name: "ask_dates", description: "Ask the travel dates", outputs: { provides: ["dates"] } },
  {
    name: "parse_upload",
    description: "Read an uploaded itinerary",
    meta: { requires: { all: ["file_id"] } },
    outputs: { provides: ["destination", "dates"] },
  },
  {
    name: "search_flights",
    description: "Search flights",
    meta: { requires: { all: ["destination", "dates"] } },
    outputs: { provides: ["flight_options"] },
  },
  {
    name: "confirm_plan",
    description: "Ask the traveller to confirm the plan",
    meta: { requires: { all: ["flight_options"] } },
    outputs: { provides: ["decisions.plan_confirmed"] },
  },
  {
    name: "book_trip",
    description: "Book the confirmed trip",
    meta: { requires: { all: ["decisions.plan_confirmed"] } },
    outputs: { provides: ["booking_id"] },
  },
  { name: "faq_search", description: "Answer questions from the FAQ", meta: { query: true } },
  { name: "admin_export", description: "Export the case", meta: { api_call_only: true } },
  { name: "audit_log", description: "Write an audit record", meta: { internal: true } },
];

/** A four-phase playbook over {@link tripSkills}. */
export function tripPlaybook(): Playbook {
  return {
    id: "trip",
    allowed_skills: ["faq_search", "ask_name"],
    phases: [
      {
        id: "collect",
        allowed_skills: ["ask_name", "ask_destination", "ask_dates", "parse_upload", "admin_export", "audit_log"],
        checkpoints: ["profile.name", "destination", "dates"],
        priority_rules: [
          {
            id: "upload",
            when: {
              all: [
                { path: "file_id", op: "present" },
                { path: "dates", op: "missing" },
              ],
            },
            skill: "parse_upload",
            reason: "an itinerary was uploaded",
          },
        ],
      },
      { id: "options", allowed_skills: ["search_flights", "ask_dates"], checkpoints: ["flight_options"] },
      {
        id: "confirm",
        allowed_skills: ["confirm_plan", "search_flights"],
        gate_field: "decisions.plan_confirmed",
        gate_value: true,
      },
      { id: "book", allowed_skills: ["book_trip"], checkpoints: ["booking_id"] },
    ],
  };
}

/** Pretends to run a skill: writes what it provides into a copy of the state. */
export function runTripSkill(name: string, state: DecisionState): DecisionState {
  const next: DecisionState = structuredClone(state);
  const trip = { ...(next.data?.["trip"] ?? {}) };
  const profile = { ...(next.profile ?? {}) };
  const decisions = { ...(next.decisions ?? {}) };
  switch (name) {
    case "ask_name":
      profile["name"] = "Ada";
      break;
    case "ask_destination":
      trip["destination"] = "Lisbon";
      break;
    case "ask_dates":
      trip["dates"] = ["2026-05-01", "2026-05-08"];
      break;
    case "parse_upload":
      trip["destination"] = "Porto";
      trip["dates"] = ["2026-06-01", "2026-06-03"];
      break;
    case "search_flights":
      trip["flight_options"] = [{ id: "TP123" }];
      break;
    case "confirm_plan":
      decisions["plan_confirmed"] = true;
      break;
    case "book_trip":
      trip["booking_id"] = "BK-1";
      break;
    default:
      break;
  }
  return { ...next, profile, decisions, data: { ...(next.data ?? {}), trip } };
}
