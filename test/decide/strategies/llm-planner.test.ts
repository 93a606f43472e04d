import { describe, expect, it } from "vitest";
import { decide } from "../../../src/decide/decide.ts";
import type { PlanModel } from "../../../src/model/plan-model.ts";
import { catchPlankitError } from "../../fixtures/catch-plankit-error.ts";
import { createTestModel } from "../scripted-plan-model.ts";
import { tripPlaybook, tripSkills } from "../trip-fixture.ts";

const playbook = tripPlaybook();

describe("llm_planner strategy", () => {
  it("passes without a model", async () => {
    const decision = await decide({ state: {}, playbook, skills: tripSkills });
    expect(decision.trace.attempts[5]).toEqual({ strategy: "llm_planner", hit: false, reason: "no model was given" });
  });

  it("asks the model with the phase, missing goals, skills, message and state, and takes its choice", async () => {
    const { model, requests } = createTestModel([
      'Here is my choice:\n```json\n{"action":"call_skill","skill":"ask_destination","reason":"the user mentioned a trip but no place"}\n```',
    ]);
    const controller = new AbortController();
    const decision = await decide({
      state: { profile: { name: "Ada" } },
      playbook,
      skills: tripSkills,
      model,
      signal: controller.signal,
      message: "I want a holiday",
    });
    expect(decision).toMatchObject({ action: "call_skill", skill: "ask_destination", strategy: "llm_planner" });
    expect(decision.reason).toBe("model: the user mentioned a trip but no place");
    expect(decision.trace.attempts[5]?.detail).toContain('"skill":"ask_destination"');
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.signal).toBe(controller.signal);
    expect(request.purpose).toBe("decide");
    expect(request.system).toContain("exactly one JSON object");
    expect(request.prompt).toContain("Phase: collect");
    expect(request.prompt).toContain("Missing goals: destination, dates");
    expect(request.prompt).toContain("- ask_destination: Ask where to go (provides: destination)");
    expect(request.prompt).not.toContain("parse_upload");
    expect(request.prompt).toContain("User message: I want a holiday");
    expect(request.prompt).toContain('"name":"Ada"');
  });

  it("accepts a respond choice", async () => {
    const { model } = createTestModel(['{"reason":"the user said hello","action":"respond"}']);
    const decision = await decide({ state: {}, playbook, skills: tripSkills, model });
    expect(decision).toMatchObject({
      action: "respond",
      strategy: "llm_planner",
      reason: "model: the user said hello",
    });
  });

  it("falls through with a trace note when the answer has no reason", async () => {
    const { model } = createTestModel(['{"action":"call_skill","skill":"ask_name"}']);
    const decision = await decide({ state: {}, playbook, skills: tripSkills, model });
    expect(decision.strategy).toBe("no_available_skills");
    expect(decision.trace.attempts[5]).toEqual({
      strategy: "llm_planner",
      hit: false,
      reason: 'the model gave no "reason"',
      detail: '{"action":"call_skill","skill":"ask_name"}',
    });
  });

  it("falls through when the model chooses a skill that is not available", async () => {
    const { model } = createTestModel(['{"action":"call_skill","skill":"book_trip","reason":"eager"}']);
    const decision = await decide({ state: {}, playbook, skills: tripSkills, model });
    expect(decision.strategy).toBe("no_available_skills");
    expect(decision.trace.attempts[5]?.reason).toBe(
      'the model chose "book_trip", which is not available (phase "collect" does not allow it (allowed_skills: ask_name, ask_destination, ask_dates, parse_upload, admin_export, audit_log); available: ask_name, ask_destination, ask_dates)',
    );
    const { model: restricted } = createTestModel(['{"action":"call_skill","skill":"admin_export","reason":"export"}']);
    const second = await decide({ state: {}, playbook, skills: tripSkills, model: restricted });
    expect(second.trace.attempts[5]?.reason).toContain("api_call_only");
  });

  it("falls through on text without JSON, an unknown action, or a missing skill name", async () => {
    const cases: [string, string][] = [
      ["I would ask for the name.", "the model's answer holds no JSON object"],
      ['{"action":"finish","reason":"done"}', 'the model answered action "finish"; expected "call_skill" or "respond"'],
      ['{"action":"call_skill","reason":"x"}', 'the model chose "call_skill" without a "skill" name'],
    ];
    for (const [answer, reason] of cases) {
      const { model } = createTestModel([answer]);
      const decision = await decide({ state: {}, playbook, skills: tripSkills, model });
      expect(decision.trace.attempts[5]?.reason).toBe(reason);
      expect(decision.strategy).toBe("no_available_skills");
    }
  });

  it("is not called when an earlier strategy decides or no skill is available", async () => {
    const { model, requests } = createTestModel([]);
    const state = { current_task_id: "options", data: { trip: { destination: "Porto", dates: ["d1"] } } };
    expect((await decide({ state, playbook, skills: tripSkills, model })).strategy).toBe("deterministic");
    const empty = { allowed_skills: [], phases: [{ id: "chat", checkpoints: ["topic"] }] };
    const decision = await decide({ state: {}, playbook: empty, skills: tripSkills, model });
    expect(decision.trace.attempts[5]?.reason).toBe("no skill is available to choose from");
    expect(requests).toHaveLength(0);
  });

  it("throws model-error when the model fails", async () => {
    const model: PlanModel = {
      async *stream() {
        throw new Error("connection reset");
      },
    };
    const error = await catchPlankitError(() => decide({ state: {}, playbook, skills: tripSkills, model }));
    expect(error.code).toBe("model-error");
    expect(error.message).toContain('phase "collect"');
    expect((error.cause as Error).message).toBe("connection reset");
  });

  it("throws aborted when the signal fires during the model call", async () => {
    const controller = new AbortController();
    const model: PlanModel = {
      async *stream() {
        yield { type: "text", text: '{"action":' };
        controller.abort(new Error("user left"));
        yield { type: "text", text: '"respond","reason":"x"}' };
        yield { type: "finish", reason: "stop" };
      },
    };
    const error = await catchPlankitError(() =>
      decide({ state: {}, playbook, skills: tripSkills, model, signal: controller.signal }),
    );
    expect(error.code).toBe("aborted");
  });
});
