import { describe, expect, it } from "vitest";
import { availableSkills } from "../../src/decide/available-skills.ts";
import type { Playbook } from "../../src/decide/playbook.ts";
import type { Skill } from "../../src/decide/skill.ts";
import { catchPlankitError } from "../fixtures/catch-plankit-error.ts";
import { tripPlaybook, tripSkills } from "./trip-fixture.ts";

const names = (skills: Skill[]): string[] => skills.map((skill) => skill.name);

describe("availableSkills", () => {
  const playbook = tripPlaybook();
  const collect = playbook.phases[0]!;

  it("requires an explicit allow-list: the phase's, else the playbook's, never all skills", async () => {
    const noList: Playbook = { phases: [{ id: "p" }] };
    const error = await catchPlankitError(() => availableSkills({}, noList, noList.phases[0]!, tripSkills));
    expect(error.code).toBe("invalid-playbook");
    expect(error.message).toContain('Phase "p" has no allowed_skills');
    const inherited: Playbook = { allowed_skills: ["ask_name", "faq_search"], phases: [{ id: "p" }] };
    expect(names(availableSkills({}, inherited, inherited.phases[0]!, tripSkills))).toEqual(["ask_name", "faq_search"]);
  });

  it("uses the phase list instead of the playbook list", () => {
    expect(names(availableSkills({}, playbook, collect, tripSkills))).not.toContain("faq_search");
  });

  it("throws for an allowed skill the registry lacks", async () => {
    const typo: Playbook = { phases: [{ id: "p", allowed_skills: ["ask_name", "ask_nmae"] }] };
    const error = await catchPlankitError(() => availableSkills({}, typo, typo.phases[0]!, tripSkills));
    expect(error.code).toBe("invalid-playbook");
    expect(error.message).toContain('"ask_nmae"');
  });

  it("keeps only skills whose requires.all and requires.any are satisfied", () => {
    const skills: Skill[] = [
      ...tripSkills,
      { name: "contact", meta: { requires: { any: ["profile.phone", "profile.email"] } } },
      { name: "anything", meta: { requires: { any: [] } } },
    ];
    const list: Playbook = { phases: [{ id: "p", allowed_skills: ["search_flights", "contact", "anything"] }] };
    const phase = list.phases[0]!;
    expect(names(availableSkills({}, list, phase, skills))).toEqual(["anything"]);
    const state = { profile: { email: "a@b.c" }, data: { trip: { destination: "Porto", dates: ["d"] } } };
    expect(names(availableSkills(state, list, phase, skills))).toEqual(["search_flights", "contact", "anything"]);
  });

  it("leaves out internal and api_call_only skills, and keeps allow-list order", () => {
    expect(names(availableSkills({}, playbook, collect, tripSkills))).toEqual([
      "ask_name",
      "ask_destination",
      "ask_dates",
    ]);
    expect(
      names(
        availableSkills(
          { data: { up: { file_id: "f1" } } },
          playbook,
          collect,
          new Map(tripSkills.map((skill) => [skill.name, skill])),
        ),
      ),
    ).toEqual(["ask_name", "ask_destination", "ask_dates", "parse_upload"]);
  });

  it("refuses a registry with two skills of one name", async () => {
    const error = await catchPlankitError(() =>
      availableSkills({}, playbook, collect, [...tripSkills, { name: "ask_name" }]),
    );
    expect(error.code).toBe("invalid-catalog");
  });
});
