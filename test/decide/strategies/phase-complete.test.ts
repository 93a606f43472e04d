import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

describe("phase_complete strategy", () => {
  it("replans to the next phase when the current one is complete", async () => {
    const state = { profile: { name: "Ada" }, data: { trip: { destination: "Porto", dates: ["d1"] } } };
    const decision = await decide({ state, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision).toMatchObject({
      action: "replan",
      next_phase: "options",
      strategy: "phase_complete",
      phase: "collect",
    });
    expect(decision.reason).toBe('phase "collect" is complete; next phase is "options"');
  });

  it("finishes after the last phase", async () => {
    const state = {
      current_task_id: "book",
      decisions: { plan_confirmed: true },
      data: { trip: { booking_id: "BK-1" } },
    };
    const decision = await decide({ state, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision).toMatchObject({ action: "finish", strategy: "phase_complete", phase: "book" });
    expect(decision.next_phase).toBeUndefined();
  });

  it("passes with the missing goals, or the closed gate, when the phase is not complete", async () => {
    const collect = await decide({ state: { profile: { name: "Ada" } }, playbook: tripPlaybook(), skills: tripSkills });
    expect(collect.trace.attempts[3]).toEqual({
      strategy: "phase_complete",
      hit: false,
      reason: 'phase "collect" is not complete: missing destination, dates',
    });
    const playbook = tripPlaybook();
    playbook.phases[1] = {
      id: "options",
      allowed_skills: ["search_flights"],
      gate_check: { path: "flight_options", op: "present" },
    };
    const gate = await decide({ state: { current_task_id: "options" }, playbook, skills: tripSkills });
    expect(gate.trace.attempts[3]?.reason).toBe('phase "options" is not complete: its gate does not pass');
  });
});
