import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import type { Skill } from "../../../src/decide/skill.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

const complete = { profile: { name: "Ada" }, data: { trip: { destination: "Porto", dates: ["d1"] } } };

describe("query_mode strategy", () => {
  it("passes when state._query_mode is not set", async () => {
    const decision = await decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills });
    expect(decision.trace.attempts[2]).toEqual({
      strategy: "query_mode",
      hit: false,
      reason: "state._query_mode is not set",
    });
  });

  it("runs a query skill of the playbook-wide allow-list, not the phase's, and does not advance the phase", async () => {
    const decision = await decide({
      state: { ...complete, _query_mode: true },
      playbook: tripPlaybook(),
      skills: tripSkills,
    });
    expect(decision).toMatchObject({
      action: "call_skill",
      skill: "faq_search",
      strategy: "query_mode",
      phase: "collect",
    });
  });

  it("takes the first runnable query skill in allow-list order, skipping unmet requirements", async () => {
    const skills: Skill[] = [
      ...tripSkills,
      { name: "kb_search", meta: { query: true, requires: { all: ["kb_id"] } } },
      { name: "web_search", meta: { query: true } },
    ];
    const playbook = { ...tripPlaybook(), allowed_skills: ["ask_name", "kb_search", "web_search", "faq_search"] };
    const decision = await decide({ state: { _query_mode: true }, playbook, skills });
    expect(decision.skill).toBe("web_search");
    expect(decision.reason).toContain("(also runnable: faq_search)");
    const withKb = await decide({ state: { _query_mode: true, data: { kb: { kb_id: "k" } } }, playbook, skills });
    expect(withKb.skill).toBe("kb_search");
  });

  it("answers directly when no query skill can run, or finishes when responding is not allowed", async () => {
    const playbook = { ...tripPlaybook(), allowed_skills: ["ask_name"] };
    const respond = await decide({ state: { _query_mode: true }, playbook, skills: tripSkills });
    expect(respond).toMatchObject({ action: "respond", strategy: "query_mode" });
    expect(respond.reason).toContain("no query skill");
    const finish = await decide({ state: { _query_mode: true }, playbook, skills: tripSkills, allowRespond: false });
    expect(finish).toMatchObject({ action: "finish", strategy: "query_mode" });
  });
});
