import { describe, expect, it } from "vitest";
import { decide } from "../../src/decide/decide.ts";
import type { Decision } from "../../src/decide/decision.ts";
import type { DecisionState } from "../../src/decide/decision-state.ts";
import type { DecisionStrategy } from "../../src/decide/decision-strategy.ts";
import type { DecisionTrace } from "../../src/decide/decision-trace.ts";
import { defaultStrategies } from "../../src/decide/default-strategies.ts";
import { catchPlankitError } from "../fixtures/catch-plankit-error.ts";
import { createTestModel } from "./scripted-plan-model.ts";
import { runTripSkill, tripPlaybook, tripSkills } from "./trip-fixture.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("decide", () => {
  it("runs the default chain in the decision engine's order", () => {
    expect(defaultStrategies.map((strategy) => strategy.name)).toEqual([
      "force_skill",
      "priority_rules",
      "query_mode",
      "phase_complete",
      "deterministic",
      "llm_planner",
      "no_available_skills",
    ]);
  });

  it("returns a decision whose trace lists every strategy tried, and hands the same trace to onTrace", async () => {
    const traces: DecisionTrace[] = [];
    const state = { current_task_id: "options", data: { trip: { destination: "Porto", dates: ["d1"] } } };
    const decision = await decide({
      state,
      playbook: tripPlaybook(),
      skills: tripSkills,
      onTrace: (trace) => traces.push(trace),
    });
    expect(traces).toEqual([decision.trace]);
    expect(decision.trace).toEqual({
      type: "decision-made",
      phase: "options",
      available: ["search_flights", "ask_dates"],
      missing_goals: ["flight_options"],
      attempts: [
        { strategy: "force_skill", hit: false, reason: "state.force_skill is not set" },
        { strategy: "priority_rules", hit: false, reason: "no priority rules apply to this phase" },
        { strategy: "query_mode", hit: false, reason: "state._query_mode is not set" },
        { strategy: "phase_complete", hit: false, reason: 'phase "options" is not complete: missing flight_options' },
        { strategy: "deterministic", hit: true, reason: decision.reason },
      ],
      strategy: "deterministic",
      action: "call_skill",
      skill: "search_flights",
      reason: decision.reason,
    });
    expect(JSON.parse(JSON.stringify(decision.trace))).toEqual(decision.trace);
  });

  it("never changes the state it is given", async () => {
    const state = deepFreeze({ profile: { name: "Ada" }, data: { trip: { destination: "Porto", dates: ["d1"] } } });
    const decision = await decide({ state, playbook: deepFreeze(tripPlaybook()), skills: tripSkills });
    expect(decision.action).toBe("replan");
    expect(state.profile.name).toBe("Ada");
  });

  it("runs a custom chain and refuses one where nothing decides", async () => {
    const greet: DecisionStrategy = {
      name: "greet",
      run: () => ({ hit: true, action: "respond", reason: "always greet" }),
    };
    const decision = await decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills, strategies: [greet] });
    expect(decision).toMatchObject({ action: "respond", strategy: "greet", reason: "always greet" });
    const pass: DecisionStrategy = { name: "pass", run: async () => ({ hit: false, reason: "never" }) };
    const error = await catchPlankitError(() =>
      decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills, strategies: [pass] }),
    );
    expect(error.code).toBe("invalid-options");
    expect(error.message).toContain("tried pass");
  });

  it("throws aborted when the signal already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await catchPlankitError(() =>
      decide({ state: {}, playbook: tripPlaybook(), skills: tripSkills, signal: controller.signal }),
    );
    expect(error.code).toBe("aborted");
  });

  it("throws for an unknown current phase and for a phase without an allow-list", async () => {
    expect(
      (
        await catchPlankitError(() =>
          decide({ state: { current_task_id: "pay" }, playbook: tripPlaybook(), skills: tripSkills }),
        )
      ).code,
    ).toBe("unknown-phase");
    const error = await catchPlankitError(() =>
      decide({ state: {}, playbook: { phases: [{ id: "p" }] }, skills: tripSkills }),
    );
    expect(error.code).toBe("invalid-playbook");
  });

  it("drives a multi-phase conversation to finish with a scripted model", async () => {
    const { model, requests } = createTestModel([
      '{"action":"call_skill","skill":"ask_name","reason":"greet the traveller by name first"}',
      'Let me answer that.\n{"action":"respond","reason":"the user asked about luggage, nothing to collect yet"}',
      '```json\n{"action":"call_skill","skill":"ask_destination","reason":"the user named a city"}\n```',
    ]);
    // Skills that talk to the user end the turn; the others let the engine go on.
    const interactive = new Set(["ask_name", "ask_destination", "ask_dates", "confirm_plan", "faq_search"]);
    const turns: { message: string; patch?: (state: DecisionState) => DecisionState }[] = [
      { message: "hi" },
      { message: "how much luggage can I take?" },
      { message: "what is the weather in Porto?", patch: (state) => ({ ...state, _query_mode: true }) },
      {
        message: "(export requested by the back office)",
        patch: (state) => ({ ...state, _query_mode: null, force_skill: "admin_export" }),
      },
      { message: "I'd like to go to Porto" },
      {
        message: "here is my itinerary",
        patch: (state) => ({ ...state, data: { ...state.data, upload: { file_id: "f1" } } }),
      },
      { message: "yes, book it" },
    ];
    let state: DecisionState = {};
    const log: Decision[] = [];
    for (const turn of turns) {
      if (turn.patch) state = turn.patch(state);
      for (let step = 0; step < 10; step++) {
        const decision = await decide({
          state,
          playbook: tripPlaybook(),
          skills: tripSkills,
          model,
          message: turn.message,
        });
        log.push(decision);
        if (decision.action === "replan") {
          state = { ...state, current_task_id: decision.next_phase ?? null };
          continue;
        }
        if (decision.action !== "call_skill") break;
        state = runTripSkill(decision.skill ?? "", state);
        if (decision.strategy === "force_skill") {
          state = { ...state, force_skill: null };
          break;
        }
        if (interactive.has(decision.skill ?? "")) break;
      }
    }

    expect(
      log.map((decision) => [
        decision.phase,
        decision.strategy,
        decision.action,
        decision.skill ?? decision.next_phase ?? "",
      ]),
    ).toEqual([
      ["collect", "llm_planner", "call_skill", "ask_name"],
      ["collect", "llm_planner", "respond", ""],
      ["collect", "query_mode", "call_skill", "faq_search"],
      ["collect", "force_skill", "call_skill", "admin_export"],
      ["collect", "llm_planner", "call_skill", "ask_destination"],
      ["collect", "priority_rules", "call_skill", "parse_upload"],
      ["collect", "phase_complete", "replan", "options"],
      ["options", "deterministic", "call_skill", "search_flights"],
      ["options", "phase_complete", "replan", "confirm"],
      ["confirm", "deterministic", "call_skill", "confirm_plan"],
      ["confirm", "phase_complete", "replan", "book"],
      ["book", "deterministic", "call_skill", "book_trip"],
      ["book", "phase_complete", "finish", ""],
    ]);
    expect(requests.map((request) => /User message: (.*)/.exec(request.prompt)?.[1])).toEqual([
      "hi",
      "how much luggage can I take?",
      "I'd like to go to Porto",
    ]);
    expect(log[0]?.reason).toBe("model: greet the traveller by name first");
    expect(
      log.every(
        (decision) => decision.trace.strategy === decision.strategy && decision.trace.attempts.at(-1)?.hit === true,
      ),
    ).toBe(true);
    expect(state.data?.["trip"]?.["booking_id"]).toBe("BK-1");
    expect(state.data?.["trip"]?.["destination"]).toBe("Porto");
  });
});
