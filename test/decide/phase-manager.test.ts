import { describe, expect, it } from "vitest";
import { PhaseManager } from "../../src/decide/phase-manager.ts";
import type { Playbook } from "../../src/decide/playbook.ts";
import { catchPlankitError } from "../fixtures/catch-plankit-error.ts";
import { tripPlaybook } from "./trip-fixture.ts";

describe("PhaseManager", () => {
  const phases = new PhaseManager(tripPlaybook());

  it("picks the phase named by current_task_id, the first one when unset", () => {
    expect(phases.current({}).id).toBe("collect");
    expect(phases.current({ current_task_id: null }).id).toBe("collect");
    expect(phases.current({ current_task_id: "confirm" }).id).toBe("confirm");
  });

  it("throws unknown-phase for a current_task_id the playbook lacks", async () => {
    const error = await catchPlankitError(() => phases.current({ current_task_id: "payment" }));
    expect(error.code).toBe("unknown-phase");
    expect(error.message).toContain('"payment"');
    expect(error.message).toContain("collect, options, confirm, book");
  });

  it("knows the next phase and the end", () => {
    expect(phases.next("collect")?.id).toBe("options");
    expect(phases.next(phases.current({ current_task_id: "book" }))).toBeUndefined();
  });

  it("lists missing checkpoints in order and completes when all are present", () => {
    expect(phases.missingGoals("collect", {})).toEqual(["profile.name", "destination", "dates"]);
    const partial = { profile: { name: "Ada" }, data: { trip: { destination: "" } } };
    expect(phases.missingGoals("collect", partial)).toEqual(["destination", "dates"]);
    expect(phases.isComplete("collect", partial)).toBe(false);
    const full = { profile: { name: "Ada" }, data: { trip: { destination: "Porto" }, when: { dates: ["d1"] } } };
    expect(phases.missingGoals("collect", full)).toEqual([]);
    expect(phases.isComplete("collect", full)).toBe(true);
  });

  it("gates on gate_field equal to gate_value, and lists the field as a goal until it passes", () => {
    expect(phases.gatePasses("confirm", {})).toBe(false);
    expect(phases.missingGoals("confirm", { decisions: { plan_confirmed: false } })).toEqual([
      "decisions.plan_confirmed",
    ]);
    expect(phases.isComplete("confirm", { decisions: { plan_confirmed: false } })).toBe(false);
    expect(phases.isComplete("confirm", { decisions: { plan_confirmed: true } })).toBe(true);
  });

  it("gates on gate_check, whose path-less leaves test gate_field", () => {
    const playbook: Playbook = {
      allowed_skills: [],
      phases: [
        {
          id: "budget",
          gate_field: "budget",
          gate_check: {
            all: [
              { op: "gte", value: 100 },
              { path: "currency", op: "present" },
            ],
          },
        },
        { id: "free", gate_check: { path: "profile.name", op: "present" } },
        { id: "both", gate_field: "tier", gate_value: "gold", gate_check: { op: "present" } },
      ],
    };
    const manager = new PhaseManager(playbook);
    expect(manager.isComplete("budget", { data: { g: { budget: 50, currency: "EUR" } } })).toBe(false);
    expect(manager.isComplete("budget", { data: { g: { budget: 150 } } })).toBe(false);
    expect(manager.isComplete("budget", { data: { g: { budget: 150, currency: "EUR" } } })).toBe(true);
    expect(manager.missingGoals("free", {})).toEqual([]);
    expect(manager.isComplete("free", {})).toBe(false);
    expect(manager.isComplete("free", { profile: { name: "Ada" } })).toBe(true);
    expect(manager.isComplete("both", { data: { g: { tier: "gold" } } })).toBe(true);
    expect(manager.isComplete("both", { data: { g: { tier: "silver" } } })).toBe(false);
  });

  it("treats a phase without goals as complete", () => {
    const manager = new PhaseManager({ allowed_skills: [], phases: [{ id: "hello" }] });
    expect(manager.isComplete("hello", {})).toBe(true);
  });

  it("refuses a gate_field without gate_value or gate_check at run time too", async () => {
    const manager = new PhaseManager({ allowed_skills: [], phases: [{ id: "p", gate_field: "ok" }] });
    const error = await catchPlankitError(() => manager.isComplete("p", {}));
    expect(error.code).toBe("invalid-playbook");
    expect(error.message).toContain('gate_field "ok"');
  });

  it("refuses a playbook without phases and unknown phase ids", async () => {
    expect((await catchPlankitError(() => new PhaseManager({ phases: [] }))).code).toBe("invalid-playbook");
    expect((await catchPlankitError(() => phases.next("nope"))).code).toBe("unknown-phase");
  });
});
