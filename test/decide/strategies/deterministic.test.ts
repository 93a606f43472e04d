import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import type { Playbook } from "../../../src/decide/playbook.ts";
import type { Skill } from "../../../src/decide/skill.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

describe("deterministic strategy", () => {
  it("chooses the unique available skill that covers a missing goal", async () => {
    const state = { current_task_id: "options", data: { trip: { destination: "Porto", dates: ["d1"] } } };
    const decision = await decide({ state, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision).toMatchObject({ action: "call_skill", skill: "search_flights", strategy: "deterministic" });
    expect(decision.reason).toBe(
      '"search_flights" is the only available skill covering the most missing goals (flight_options)',
    );
  });

  it("covers a gate_field goal", async () => {
    const state = {
      current_task_id: "confirm",
      data: { trip: { destination: "P", dates: ["d"], flight_options: [1] } },
    };
    const decision = await decide({ state, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision).toMatchObject({ skill: "confirm_plan", strategy: "deterministic" });
  });

  it("prefers the skill covering the most missing goals", async () => {
    const skills: Skill[] = [
      { name: "ask_city", outputs: { provides: ["city"] } },
      { name: "ask_trip", outputs: { provides: ["city", "nights"] } },
    ];
    const playbook: Playbook = {
      allowed_skills: ["ask_city", "ask_trip"],
      phases: [{ id: "p", checkpoints: ["city", "nights"] }],
    };
    expect((await decide({ state: {}, playbook, skills })).skill).toBe("ask_trip");
    const decision = await decide({ state: { data: { g: { nights: 3 } } }, playbook, skills });
    expect(decision.strategy).not.toBe("deterministic");
    expect(decision.trace.attempts[4]?.reason).toBe(
      '"ask_city", "ask_trip" each cover 1 missing goal; no unique choice',
    );
  });

  it("passes on a tie and falls through to the fallback without a model", async () => {
    const decision = await decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision.trace.attempts[4]).toEqual({
      strategy: "deterministic",
      hit: false,
      reason: '"ask_name", "ask_destination", "ask_dates" each cover 1 missing goal; no unique choice',
    });
    expect(decision.strategy).toBe("no_available_skills");
  });

  it("passes when no available skill provides a missing goal", async () => {
    const playbook: Playbook = { allowed_skills: ["faq_search"], phases: [{ id: "p", checkpoints: ["budget"] }] };
    const decision = await decide({ state: {}, playbook, skills: tripSkills });
    expect(decision.trace.attempts[4]?.reason).toBe("no available skill provides a missing goal (missing: budget)");
  });

  it("passes when the phase has no missing goal or no skill is available", async () => {
    const gated: Playbook = {
      allowed_skills: ["ask_name"],
      phases: [{ id: "p", gate_check: { path: "profile.name", op: "eq", value: "Bo" } }],
    };
    const noGoal = await decide({ state: { profile: { name: "Ada" } }, playbook: gated, skills: tripSkills });
    expect(noGoal.trace.attempts[4]?.reason).toBe("the phase has no missing goal to cover");
    const empty: Playbook = { allowed_skills: [], phases: [{ id: "p", checkpoints: ["budget"] }] };
    expect((await decide({ state: {}, playbook: empty, skills: tripSkills })).trace.attempts[4]?.reason).toBe(
      "no skill is available",
    );
  });
});
