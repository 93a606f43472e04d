import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import type { Playbook } from "../../../src/decide/playbook.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

describe("no_available_skills strategy", () => {
  const empty: Playbook = { allowed_skills: [], phases: [{ id: "chat", checkpoints: ["topic"] }] };

  it("responds when no skill is available", async () => {
    const decision = await decide({ state: {}, playbook: empty, skills: tripSkills });
    expect(decision).toMatchObject({ action: "respond", strategy: "no_available_skills", phase: "chat" });
    expect(decision.reason).toBe('no skill is available in phase "chat"; responding');
    expect(decision.trace.attempts.map((attempt) => attempt.hit)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it("finishes instead when responding is not allowed", async () => {
    const decision = await decide({ state: {}, playbook: empty, skills: tripSkills, allowRespond: false });
    expect(decision).toMatchObject({ action: "finish", strategy: "no_available_skills" });
    expect(decision.reason).toBe('no skill is available in phase "chat"; finishing');
  });

  it("says which skills were available when nothing chose among them", async () => {
    const decision = await decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision.reason).toBe(
      "no strategy chose among the available skills (ask_name, ask_destination, ask_dates); responding",
    );
  });
});
