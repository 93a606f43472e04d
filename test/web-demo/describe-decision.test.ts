import { describe, expect, it } from "vitest";
import type { DecisionTrace } from "../../src/decide.ts";
import { describeDecision } from "../../web-demo/describe-decision.ts";

const trace: DecisionTrace = {
  type: "decision-made",
  phase: "collect",
  available: ["read_destination", "read_dates"],
  missing_goals: ["destination", "dates"],
  attempts: [
    { strategy: "force_skill", hit: false, reason: "not set" },
    { strategy: "llm_planner", hit: true, reason: "model: the message names Tokyo" },
  ],
  strategy: "llm_planner",
  action: "call_skill",
  skill: "read_destination",
  reason: "model: the message names Tokyo",
};

describe("describeDecision", () => {
  it("writes the phase, strategy, action with its target, reason and how many strategies passed", () => {
    expect(describeDecision(trace)).toBe(
      "collect · llm_planner → call_skill read_destination: model: the message names Tokyo (after 1 passed)",
    );
    const { skill: _skill, ...withoutSkill } = trace;
    expect(
      describeDecision({
        ...withoutSkill,
        action: "replan",
        next_phase: "research",
        strategy: "phase_complete",
        reason: "done",
      }),
    ).toBe("collect · phase_complete → replan research: done (after 1 passed)");
    expect(
      describeDecision({
        ...withoutSkill,
        action: "finish",
        attempts: [{ strategy: "x", hit: true, reason: "r" }],
        strategy: "x",
        reason: "r",
      }),
    ).toBe("collect · x → finish: r");
  });
});
