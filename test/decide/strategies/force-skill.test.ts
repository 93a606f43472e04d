import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import { catchPlankitError } from "../../fixtures/catch-plankit-error.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

const playbook = tripPlaybook();
const uploaded = { data: { upload: { file_id: "f1" } } };

describe("force_skill strategy", () => {
  it("passes when state.force_skill is not set", async () => {
    const decision = await decide({ state: {}, playbook, skills: tripSkills });
    expect(decision.trace.attempts[0]).toEqual({
      strategy: "force_skill",
      hit: false,
      reason: "state.force_skill is not set",
    });
    expect(decision.strategy).not.toBe("force_skill");
  });

  it("chooses the forced skill before any priority rule", async () => {
    const decision = await decide({ state: { ...uploaded, force_skill: "ask_dates" }, playbook, skills: tripSkills });
    expect(decision).toMatchObject({
      action: "call_skill",
      skill: "ask_dates",
      strategy: "force_skill",
      phase: "collect",
    });
    expect(decision.reason).toBe('state.force_skill requests "ask_dates"');
    expect(decision.trace.attempts).toHaveLength(1);
  });

  it("may run api_call_only and internal skills, being a direct call", async () => {
    expect((await decide({ state: { force_skill: "admin_export" }, playbook, skills: tripSkills })).skill).toBe(
      "admin_export",
    );
    expect((await decide({ state: { force_skill: "audit_log" }, playbook, skills: tripSkills })).skill).toBe(
      "audit_log",
    );
  });

  it("throws unavailable-skill for a skill the registry lacks", async () => {
    const error = await catchPlankitError(() =>
      decide({ state: { force_skill: "teleport" }, playbook, skills: tripSkills }),
    );
    expect(error.code).toBe("unavailable-skill");
    expect(error.message).toContain('state.force_skill is "teleport"');
    expect(error.message).toContain("skill registry");
  });

  it("throws unavailable-skill for a skill the phase does not allow", async () => {
    const error = await catchPlankitError(() =>
      decide({ state: { force_skill: "book_trip" }, playbook, skills: tripSkills }),
    );
    expect(error.code).toBe("unavailable-skill");
    expect(error.message).toContain('phase "collect" does not allow it');
    expect(error.message).toContain("check allowed_skills");
  });

  it("throws unavailable-skill when the skill's requirements are unmet", async () => {
    const error = await catchPlankitError(() =>
      decide({ state: { force_skill: "parse_upload" }, playbook, skills: tripSkills }),
    );
    expect(error.code).toBe("unavailable-skill");
    expect(error.message).toContain('requires.all path "file_id" is missing');
    expect(error.message).toContain("meta.requires");
  });
});
