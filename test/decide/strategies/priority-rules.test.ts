import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import type { Playbook } from "../../../src/decide/playbook.ts";
import { catchPlankitError } from "../../fixtures/catch-plankit-error.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

const uploaded = { data: { upload: { file_id: "f1" } } };

describe("priority_rules strategy", () => {
  it("forces the skill of the first rule that hits, with the rule in the reason", async () => {
    const decision = await decide({ state: uploaded, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision).toMatchObject({ action: "call_skill", skill: "parse_upload", strategy: "priority_rules" });
    expect(decision.reason).toBe(
      'priority rule phase "collect" priority_rules[0] ("upload") hit (all(file_id present, dates missing)): an itinerary was uploaded',
    );
  });

  it("passes when no rule hits, saying how many were tried", async () => {
    const decision = await decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision.trace.attempts[1]).toEqual({
      strategy: "priority_rules",
      hit: false,
      reason: "none of 1 priority rule hit",
    });
    const none = await decide({
      state: {},
      playbook: { ...tripPlaybook(), phases: tripPlaybook().phases.slice(1) },
      skills: tripSkills,
    });
    expect(none.trace.attempts[1]?.reason).toBe("no priority rules apply to this phase");
  });

  it("tries phase rules before playbook rules", async () => {
    const playbook: Playbook = {
      ...tripPlaybook(),
      priority_rules: [{ id: "global", when: { path: "file_id", op: "present" }, skill: "ask_name" }],
    };
    expect((await decide({ state: uploaded, playbook, skills: tripSkills })).skill).toBe("parse_upload");
    const named = { data: { upload: { file_id: "f1" }, trip: { dates: ["d1"] } } };
    const decision = await decide({ state: named, playbook, skills: tripSkills });
    expect(decision.skill).toBe("ask_name");
    expect(decision.reason).toContain('playbook priority_rules[0] ("global")');
  });

  it("throws unavailable-skill when a rule hits a skill that cannot run", async () => {
    const playbook = tripPlaybook();
    playbook.phases[0]!.priority_rules = [{ when: { path: "profile.name", op: "missing" }, skill: "parse_upload" }];
    const error = await catchPlankitError(() => decide({ state: {}, playbook, skills: tripSkills }));
    expect(error.code).toBe("unavailable-skill");
    expect(error.message).toContain('its skill "parse_upload" cannot run: requires.all path "file_id" is missing');
    expect(error.message).toContain("Check allowed_skills and meta.requires");
  });

  it("throws unavailable-skill when a rule hits a skill outside the phase's allow-list", async () => {
    const playbook = tripPlaybook();
    playbook.phases[0]!.priority_rules = [{ when: { path: "profile.name", op: "missing" }, skill: "book_trip" }];
    const error = await catchPlankitError(() => decide({ state: {}, playbook, skills: tripSkills }));
    expect(error.code).toBe("unavailable-skill");
    expect(error.message).toContain('phase "collect" does not allow it');
  });
});
