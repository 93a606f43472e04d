/**
 * The answer on its own, once every step ended: a draft whose step never
 * came, the last reply step, the model's integration, or the template —
 * over a small run core with real replies.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import { createScriptedModel, type ScriptedResponse } from "../../../src/model/create-scripted-model.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { answerRun, answerWithTemplate } from "../../../src/runtime/run/answer-run.ts";
import { Replies } from "../../../src/runtime/run/replies.ts";
import type { RunConfig } from "../../../src/runtime/run/run-core.ts";
import type { RunPhase } from "../../../src/runtime/run/run-phase.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { deferred, reply, tool } from "../fake-planner.ts";
import { planSource } from "./part-fixtures.ts";
import { createPhaseCore, deltasOf, lastOf } from "./phase-fixtures.ts";

/** A core and its replies, with the given steps succeeded (a reply step's result is its text). */
function setup(overrides: Partial<RunConfig> = {}, succeeded: [PlanStep, unknown][] = []) {
  const run = createPhaseCore(overrides);
  const view: { phase: RunPhase; planSource: StepSource; anyFailure: boolean; planIssues: number } = {
    phase: "finishing",
    planSource: planSource("streaming"),
    anyFailure: false,
    planIssues: 0,
  };
  const replies = new Replies(run.core, view);
  for (const [step, result] of succeeded) run.table.succeed(run.table.add(step, view.planSource), result);
  return { ...run, view, replies };
}

const integrating = (answer: ScriptedResponse | (() => PromiseLike<ScriptedResponse>)) =>
  createScriptedModel({ responses: { integrate: typeof answer === "function" ? answer : [answer] } });

const replyOf = (events: readonly RuntimeEvent[]) => lastOf(events, "reply");

describe("answerRun", () => {
  it("ends a streaming draft whose step never came: the rest of its text, then a reply with no step", async () => {
    const model = integrating("unused");
    const { core, replies, view, events } = setup({}, []);
    view.phase = "planning";
    replies.draft({ id: "s1", index: 0, text: "Hello wor" });
    expect(deltasOf(events)).toBe("Hello wor");
    view.phase = "finishing";
    await answerRun(core, replies, model, undefined);
    expect(replyOf(events)).toEqual({ type: "reply", runId: "r1", t: 0, text: "Hello wor", source: "step" });
    expect(deltasOf(events)).toBe("Hello wor");
    expect(model.calls).toBe(0);
  });

  it("answers with the last reply step that succeeded, written whole, and asks no model", async () => {
    const model = integrating("unused");
    const { core, replies, events, table } = setup({}, [
      [tool("s1", "read"), { temp: 21 }],
      [reply("s2", "first"), "first"],
      [reply("s3", "It is {{s1.temp}}"), "It is 21"],
    ]);
    const failed = table.add(reply("s4", "{{s9}}"), planSource());
    failed.status = "failed";
    await answerRun(core, replies, model, undefined);
    expect(events.map((event) => event.type)).toEqual(["reply-delta", "reply"]);
    expect(deltasOf(events)).toBe("It is 21");
    expect(replyOf(events)).toMatchObject({ text: "It is 21", source: "step", stepId: "s3" });
    expect(model.calls).toBe(0);
  });

  it("does not write again a reply step whose text already streamed", async () => {
    const { core, replies, view, events, table } = setup({ replyStreaming: "early" }, [[tool("s1", "read"), 5]]);
    view.phase = "executing";
    view.planSource = planSource();
    const answer = table.add(reply("s2", "Got {{s1}}!"), view.planSource);
    replies.advance();
    replies.run(answer);
    const before = deltasOf(events);
    expect(before).toBe("Got 5!");
    await answerRun(core, replies, undefined, undefined);
    expect(deltasOf(events)).toBe(before);
    expect(replyOf(events)).toMatchObject({ text: "Got 5!", source: "step", stepId: "s2" });
  });

  it("has the model integrate the results when no reply step succeeded, streamed as reply-delta without the white space around it", async () => {
    const model = integrating("  It is 21 degrees in Paris.\n");
    const { core, replies, events, limits } = setup({}, [[tool("s1", "read", { city: "Paris" }), { temp: 21 }]]);
    await answerRun(core, replies, model, undefined);
    expect(replyOf(events)).toMatchObject({ text: "It is 21 degrees in Paris.", source: "model" });
    expect(deltasOf(events)).toBe("It is 21 degrees in Paris.");
    expect(events.filter((event) => event.type === "reply-delta").length).toBeGreaterThan(1);
    const request = model.requests[0];
    expect(request?.purpose).toBe("integrate");
    expect(request?.signal).toBe(core.signal);
    expect(request?.prompt).toContain("# Request\nq");
    expect(request?.prompt).toContain('s1 (read): {"temp":21}');
    // The run's own model is already counted by its guard: answering counts nothing more.
    expect(limits.usage.modelCalls).toBe(0);
  });

  it("answers with the template when the runtime integrates by template or has no model", async () => {
    const model = integrating("unused");
    const byTemplate = setup({ integrate: "template" }, [[tool("s1", "read"), 1]]);
    await answerRun(byTemplate.core, byTemplate.replies, model, undefined);
    expect(replyOf(byTemplate.events)).toMatchObject({ text: "Results:\n- s1 (read): 1", source: "template" });
    expect(deltasOf(byTemplate.events)).toBe("Results:\n- s1 (read): 1");
    expect(model.calls).toBe(0);

    const noModel = setup({}, [[tool("s1", "read"), 1]]);
    await answerRun(noModel.core, noModel.replies, undefined, undefined);
    expect(replyOf(noModel.events)).toMatchObject({ source: "template" });
  });

  it("answers with the template, and marks the budget hit, when the model-call budget is spent", async () => {
    const model = integrating("unused");
    const spent = setup({ budget: { modelCalls: 1 } }, [[tool("s1", "read"), 1]]);
    spent.limits.usage.modelCalls = 1;
    await answerRun(spent.core, spent.replies, model, undefined);
    expect(replyOf(spent.events)).toMatchObject({ source: "template" });
    expect(spent.limits.hit).toBe(true);
    expect(model.calls).toBe(0);

    const left = setup({ budget: { modelCalls: 2 } }, [[tool("s1", "read"), 1]]);
    left.limits.usage.modelCalls = 1;
    await answerRun(left.core, left.replies, integrating("fine"), undefined);
    expect(replyOf(left.events)).toMatchObject({ text: "fine", source: "model" });
    expect(left.limits.hit).toBe(false);
  });

  it("falls back to the template when the model fails before writing, saying what failed when nothing ran", async () => {
    const model = integrating({ text: "", error: new Error("overloaded") });
    const { core, replies, events } = setup();
    await answerRun(core, replies, model, { code: "model-error", message: "The planner failed" });
    expect(model.calls).toBe(1);
    expect(events.map((event) => event.type)).toEqual(["reply-delta", "reply"]);
    expect(replyOf(events)).toMatchObject({ text: "No answer: The planner failed", source: "template" });
  });

  it("emits no reply when the run ended while the model was integrating", async () => {
    const answer = deferred<ScriptedResponse>();
    const model = integrating(() => answer.promise);
    const { core, replies, events, end } = setup({}, [[tool("s1", "read"), 1]]);
    const answering = answerRun(core, replies, model, undefined);
    end();
    answer.resolve("too late");
    await answering;
    expect(events).toEqual([]);
  });
});

describe("answerWithTemplate", () => {
  it("writes the template as reply-delta, then the reply, whose text the deltas make up", () => {
    const { core, replies, events } = setup({}, [[tool("s1", "read"), { ok: true }]]);
    answerWithTemplate(core, replies, { code: "timeout", message: "late" });
    expect(events.map((event) => event.type)).toEqual(["reply-delta", "reply"]);
    expect(replyOf(events)).toMatchObject({ text: 'Results:\n- s1 (read): {"ok":true}', source: "template" });
    expect(deltasOf(events)).toBe(replyOf(events).text);
    expect(Object.hasOwn(replyOf(events), "stepId")).toBe(false);
  });
});
