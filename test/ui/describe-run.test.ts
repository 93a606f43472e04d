import { describe, expect, it } from "vitest";
import { replay } from "../../src/events.ts";
import type { RuntimeEvent } from "../../src/index.ts";
import { describeRun } from "../../src/ui/describe-run.ts";
import { describeStatus, stepNote } from "../../src/ui/describe-step.ts";

const base = { runId: "r", t: 1 };
const usage = { modelCalls: 1, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 };
const note = { id: "s1", type: "tool", name: "save_note", arguments: { title: "groceries" } } as const;

/** A note run that a person (or the clock) denied. */
function deniedRun(by: "caller" | "timeout"): RuntimeEvent[] {
  const reason = by === "caller" ? "not today" : "No decision within 60000 ms";
  return [
    { ...base, type: "plan-start", kind: "plan", query: "save a note", attempt: 1 },
    { ...base, type: "step-planned", step: note, index: 0, source: "plan", safe: false },
    {
      ...base,
      type: "step-planned",
      step: { id: "s2", type: "reply", text: "Saved {{s1.title}}" },
      index: 1,
      source: "plan",
      safe: true,
    },
    { ...base, type: "plan-end", clean: true, finishReason: "stop", fallback: false, steps: 2, modelCalls: 1 },
    {
      ...base,
      type: "approval-request",
      requestId: "a1",
      source: "plan",
      attempt: 1,
      steps: [{ stepId: "s1", tool: "save_note", arguments: note.arguments, waiting: [], mode: "plan" }],
    },
    { ...base, type: "approval-decision", requestId: "a1", stepId: "s1", approved: false, reason, by },
    { ...base, type: "step-skipped", stepId: "s1", code: "denied", reason },
    { ...base, type: "step-skipped", stepId: "s2", code: "dependency-failed", reason: 'It depends on step "s1"' },
    { ...base, type: "reply", text: "Not done.", source: "model" },
    { ...base, type: "run-end", reason: "completed", durationMs: 14, usage },
  ] as RuntimeEvent[];
}

describe("describeRun and the step's words", () => {
  it("shows a denial as the person's choice, not as a failure or a plain skip", () => {
    const state = replay(deniedRun("caller"));
    expect(describeRun(state, { status: "done" })).toEqual({
      text: "Completed in 14 ms · 1 step: 1 denied by you",
      tone: "success",
    });
    expect(describeStatus(state.steps[0]!)).toBe("denied");
    expect(stepNote(state.steps[0]!)).toBe("You denied it: not today");
    expect(describeStatus(state.steps[1]!)).toBe("skipped");
  });

  it("keeps a step nobody answered in time a skip, with the runtime's reason", () => {
    const state = replay(deniedRun("timeout"));
    expect(describeRun(state, { status: "done" }).text).toBe("Completed in 14 ms · 1 step: 1 skipped");
    expect(describeStatus(state.steps[0]!)).toBe("skipped");
    expect(stepNote(state.steps[0]!)).toBe("No decision within 60000 ms");
  });

  it("says what happened after a failed look-up and a re-plan, rather than a bare count", () => {
    const lookup = {
      id: "s1",
      type: "tool",
      name: "kb_lookup",
      arguments: { query: "population of Atlantis" },
    } as const;
    const state = replay([
      { ...base, type: "plan-start", kind: "plan", query: "Atlantis?", attempt: 1 },
      { ...base, type: "step-planned", step: lookup, index: 0, source: "plan", safe: true },
      {
        ...base,
        type: "step-start",
        stepId: "s1",
        attempt: 1,
        tool: "kb_lookup",
        input: lookup.arguments,
        cached: false,
      },
      {
        ...base,
        type: "step-error",
        stepId: "s1",
        attempt: 1,
        error: { code: "tool-error", message: "No fact" },
        final: true,
        durationMs: 2,
      },
      { ...base, type: "replan", attempt: 1, failed: ["s1"], replaced: [], added: ["s2"], renamed: {} },
      {
        ...base,
        type: "step-planned",
        step: { id: "s2", type: "reply", text: "No such fact." },
        index: 1,
        source: "replan",
        safe: true,
      },
      { ...base, type: "reply", text: "No such fact.", source: "step", stepId: "s2" },
      { ...base, type: "run-end", reason: "completed", durationMs: 2900, usage },
    ] as RuntimeEvent[]);
    expect(describeRun(state, { status: "done" })).toEqual({
      text: "Completed in 2.9 s · 1 step: 1 failed; 1 re-plan",
      tone: "",
    });
  });

  it("says that a plan of only its reply answered without tools", () => {
    const state = replay([
      { ...base, type: "plan-start", kind: "plan", query: "a poem", attempt: 1 },
      {
        ...base,
        type: "step-planned",
        step: { id: "s1", type: "reply", text: "I can't." },
        index: 0,
        source: "plan",
        safe: true,
      },
      { ...base, type: "reply", text: "I can't.", source: "step", stepId: "s1" },
      { ...base, type: "run-end", reason: "completed", durationMs: 18, usage },
    ] as RuntimeEvent[]);
    expect(describeRun(state, { status: "done" }).text).toBe("Completed in 18 ms · answered without tools");
  });

  it("follows a running run: planning, then waiting for the person", () => {
    const events = deniedRun("caller");
    expect(describeRun(replay(events.slice(0, 1)), { status: "open" }).text).toBe("Planning…");
    expect(describeRun(replay(events.slice(0, 5)), { status: "open" })).toEqual({
      text: "Waiting for your approval of 1 step · 0 of 2 steps done",
      tone: "warning",
    });
    expect(describeRun(replay(events.slice(0, 5)), { status: "reconnecting" }).text).toBe(
      "Reconnecting… 0 of 2 steps done",
    );
    expect(describeRun(undefined, { status: "failed", error: new Error("401") })).toEqual({
      text: "Could not read the run: 401",
      tone: "danger",
    });
  });
});
