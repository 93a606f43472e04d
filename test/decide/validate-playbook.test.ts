import { describe, expect, it } from "vitest";
import { parsePlaybook } from "../../src/decide/parse-playbook.ts";
import type { PlaybookIssue } from "../../src/decide/playbook-issue.ts";
import { validatePlaybook } from "../../src/decide/validate-playbook.ts";
import { catchPlankitError } from "../fixtures/catch-plankit-error.ts";
import { tripPlaybook, tripSkills } from "./trip-fixture.ts";

/** The trip playbook as plain JSON with one change applied. */
function variant(change: (playbook: Record<string, any>) => void): unknown {
  const playbook = JSON.parse(JSON.stringify(tripPlaybook()));
  change(playbook);
  return playbook;
}

function onlyIssue(playbook: unknown, options?: Parameters<typeof validatePlaybook>[2]): PlaybookIssue {
  const issues = validatePlaybook(playbook, tripSkills, options);
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

describe("validatePlaybook", () => {
  it("finds nothing wrong with a valid playbook", () => {
    expect(validatePlaybook(tripPlaybook(), tripSkills)).toEqual([]);
  });

  it("invalid-shape: a wrong type or a misspelt key, with a pointer", () => {
    const typo = onlyIssue(variant((p) => (p.phases[1].allowed_skill = p.phases[1].allowed_skills)));
    expect(typo).toMatchObject({ code: "invalid-shape", path: "/phases/1/allowed_skill" });
    const wrongType = onlyIssue(variant((p) => (p.phases[0].checkpoints = "profile.name")));
    expect(wrongType).toMatchObject({ code: "invalid-shape", path: "/phases/0/checkpoints" });
    const condition = onlyIssue(variant((p) => (p.phases[0].priority_rules[0].when.all[1].op = "absent")));
    expect(condition).toMatchObject({ code: "invalid-shape", path: "/phases/0/priority_rules/0/when/all/1/op" });
    expect(condition.message).toContain('unknown operator "absent"');
    expect(validatePlaybook("not a playbook", tripSkills)[0]).toMatchObject({ code: "invalid-shape", path: "" });
  });

  it("no-phases: phases must not be empty", () => {
    expect(onlyIssue(variant((p) => (p.phases = [])))).toMatchObject({ code: "no-phases", path: "/phases" });
  });

  it("duplicate-phase: phase ids are unique", () => {
    const issue = onlyIssue(variant((p) => (p.phases[3].id = "options")));
    expect(issue).toMatchObject({ code: "duplicate-phase", path: "/phases/3/id" });
    expect(issue.message).toContain('"options"');
  });

  it("state-prefix: paths have no state. prefix", () => {
    const issue = onlyIssue(variant((p) => (p.phases[0].checkpoints[0] = "state.profile.name")));
    expect(issue).toMatchObject({ code: "state-prefix", path: "/phases/0/checkpoints/0" });
    expect(issue.message).toContain('write "profile.name"');
    expect(issue.message).toContain('Phase "collect"');
    const gate = onlyIssue(variant((p) => (p.phases[2].gate_field = "state.decisions.plan_confirmed")));
    expect(gate).toMatchObject({ code: "state-prefix", path: "/phases/2/gate_field" });
  });

  it("data-group-path: data is named by its leaf, never data.<group>.<field>", () => {
    const issue = onlyIssue(variant((p) => (p.phases[1].checkpoints[0] = "data.trip.flight_options")));
    expect(issue).toMatchObject({ code: "data-group-path", path: "/phases/1/checkpoints/0" });
    expect(issue.message).toContain('write the leaf name "flight_options"');
    const inRule = onlyIssue(variant((p) => (p.phases[0].priority_rules[0].when.all[0].path = "data.upload.file_id")));
    expect(inRule).toMatchObject({ code: "data-group-path", path: "/phases/0/priority_rules/0/when/all/0/path" });
  });

  it("invalid-path: other malformed paths", () => {
    const issue = onlyIssue(variant((p) => (p.phases[1].checkpoints[0] = "trip.flight options")));
    expect(issue).toMatchObject({ code: "invalid-path", path: "/phases/1/checkpoints/0" });
    expect(issue.message).toContain('"trip.flight options"');
  });

  it("unknown-field: profile and decisions fields come from an allow-list", () => {
    const derived = onlyIssue(variant((p) => (p.phases[0].checkpoints[0] = "profile.nmae")));
    expect(derived).toMatchObject({ code: "unknown-field", path: "/phases/0/checkpoints/0" });
    expect(derived.message).toContain('profile field "nmae"');
    expect(derived.message).toContain("allowed: name");
    const gate = onlyIssue(variant((p) => (p.phases[2].gate_field = "decisions.confirmed")));
    expect(gate).toMatchObject({ code: "unknown-field", path: "/phases/2/gate_field" });
    const explicit = onlyIssue(tripPlaybook(), { profileFields: ["email"] });
    expect(explicit).toMatchObject({ code: "unknown-field", path: "/phases/0/checkpoints/0" });
    expect(
      validatePlaybook(
        variant((p) => (p.phases[0].checkpoints[0] = "profile.email")),
        tripSkills,
        { profileFields: ["email"] },
      ),
    ).toEqual([]);
  });

  it("gate-without-check: a gate_field needs gate_value or gate_check", () => {
    const issue = onlyIssue(variant((p) => delete p.phases[2].gate_value));
    expect(issue).toMatchObject({ code: "gate-without-check", path: "/phases/2/gate_field" });
    expect(issue.message).toContain('gate_field "decisions.plan_confirmed"');
    const withCheck = variant((p) => {
      delete p.phases[2].gate_value;
      p.phases[2].gate_check = { op: "eq", value: true };
    });
    expect(validatePlaybook(withCheck, tripSkills)).toEqual([]);
  });

  it("gate-value-without-field: a gate_value needs a gate_field", () => {
    const issue = onlyIssue(variant((p) => (p.phases[1].gate_value = "yes")));
    expect(issue).toMatchObject({ code: "gate-value-without-field", path: "/phases/1/gate_value" });
  });

  it("missing-condition-path: leaves name a path unless a gate_field supplies it", () => {
    const rule = onlyIssue(variant((p) => delete p.phases[0].priority_rules[0].when.all[1].path));
    expect(rule).toMatchObject({ code: "missing-condition-path", path: "/phases/0/priority_rules/0/when/all/1" });
    const gate = onlyIssue(variant((p) => (p.phases[1].gate_check = { not: { op: "missing" } })));
    expect(gate).toMatchObject({ code: "missing-condition-path", path: "/phases/1/gate_check/not" });
  });

  it("no-allowed-skills: every phase has an allow-list, its own or the playbook's", () => {
    const issue = onlyIssue(
      variant((p) => {
        delete p.allowed_skills;
        delete p.phases[3].allowed_skills;
      }),
    );
    expect(issue).toMatchObject({ code: "no-allowed-skills", path: "/phases/3" });
    expect(issue.message).toContain('Phase "book"');
  });

  it("unknown-skill: allowed and rule skills exist in the registry", () => {
    const allowed = onlyIssue(variant((p) => p.phases[1].allowed_skills.push("search_hotels")));
    expect(allowed).toMatchObject({ code: "unknown-skill", path: "/phases/1/allowed_skills/2" });
    expect(allowed.message).toContain('"search_hotels"');
    const global = onlyIssue(variant((p) => p.allowed_skills.push("chitchat")));
    expect(global).toMatchObject({ code: "unknown-skill", path: "/allowed_skills/2" });
    const rule = onlyIssue(variant((p) => (p.phases[0].priority_rules[0].skill = "parse_pdf")));
    expect(rule).toMatchObject({ code: "unknown-skill", path: "/phases/0/priority_rules/0/skill" });
  });

  it("rule-skill-not-allowed: a rule's skill is allowed wherever the rule applies", () => {
    const phaseRule = onlyIssue(variant((p) => (p.phases[0].priority_rules[0].skill = "search_flights")));
    expect(phaseRule).toMatchObject({ code: "rule-skill-not-allowed", path: "/phases/0/priority_rules/0/skill" });
    const global = validatePlaybook(
      variant((p) => (p.priority_rules = [{ when: { path: "profile.name", op: "missing" }, skill: "ask_name" }])),
      tripSkills,
    );
    expect(global.map((issue) => [issue.code, issue.path])).toEqual([
      ["rule-skill-not-allowed", "/priority_rules/0/skill"],
      ["rule-skill-not-allowed", "/priority_rules/0/skill"],
      ["rule-skill-not-allowed", "/priority_rules/0/skill"],
    ]);
    expect(global.map((issue) => /phase "(\w+)"/.exec(issue.message)?.[1])).toEqual(["options", "confirm", "book"]);
  });

  it("rule-skill-restricted: a rule cannot force an internal or api_call_only skill", () => {
    const issue = onlyIssue(variant((p) => (p.phases[0].priority_rules[0].skill = "admin_export")));
    expect(issue).toMatchObject({ code: "rule-skill-restricted", path: "/phases/0/priority_rules/0/skill" });
    expect(issue.message).toContain("api_call_only");
  });

  it("reports several issues in document order, and escapes pointer segments", () => {
    const issues = validatePlaybook(
      variant((p) => {
        p.phases[0].checkpoints[0] = "state.profile.name";
        p.phases[3].checkpoints[0] = "data.trip.booking_id";
      }),
      tripSkills,
    );
    expect(issues.map((issue) => issue.code)).toEqual(["state-prefix", "data-group-path"]);
    const escaped = validatePlaybook(
      variant((p) => (p.phases[0]["a/b~c"] = 1)),
      tripSkills,
    );
    expect(escaped[0]?.path).toBe("/phases/0/a~1b~0c");
  });
});

describe("parsePlaybook", () => {
  it("returns a valid playbook", () => {
    const playbook = tripPlaybook();
    expect(parsePlaybook(playbook, tripSkills)).toEqual(playbook);
  });

  it("throws invalid-playbook listing every issue, with the issues as cause", async () => {
    const error = await catchPlankitError(() =>
      parsePlaybook(
        variant((p) => {
          p.phases[0].checkpoints[0] = "state.profile.name";
          delete p.phases[2].gate_value;
        }),
        tripSkills,
      ),
    );
    expect(error.code).toBe("invalid-playbook");
    expect(error.message).toContain("2 issues");
    expect(error.message).toContain("[state-prefix]");
    expect(error.message).toContain("[gate-without-check]");
    expect((error.cause as PlaybookIssue[]).map((issue) => issue.code)).toEqual(["state-prefix", "gate-without-check"]);
  });
});
