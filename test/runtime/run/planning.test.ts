/**
 * Planning on its own: the planner's stream read into a small run core —
 * context first, `plan-start`, steps with their source, issues, repairs,
 * turns, `plan-end`, the planner's usage, its stall, and its stop.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlanModel } from "../../../src/model/plan-model.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import type { PlannerEvent, StepOutcome } from "../../../src/planner/planner-event.ts";
import { Planning } from "../../../src/runtime/run/planning.ts";
import type { RunConfig } from "../../../src/runtime/run/run-core.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { deferred, reply, tool } from "../fake-planner.ts";
import { createFakeClock } from "./fake-clock.ts";
import {
  createPhaseCore,
  createScriptedPlanner,
  lastOf,
  planEvents,
  type ScriptedPlanner,
  settle,
} from "./phase-fixtures.ts";

const issue = { code: "invalid-step" as const, index: 0, path: "/steps/0", message: "bad step" };
const noModel: PlanModel = { stream: () => ({ async *[Symbol.asyncIterator]() {} }) };

/** Planning over a small core; every hook call is logged with how many events came before it. */
function setup(
  planner: ScriptedPlanner,
  overrides: Partial<RunConfig> = {},
  context: () => Promise<string> = async () => "",
) {
  const run = createPhaseCore({ planner, ...overrides });
  const log: string[] = [];
  const sources: StepSource[] = [];
  const ended: { source: StepSource; state: StepSource["state"]; missing: readonly string[] }[] = [];
  const released: (readonly string[])[] = [];
  const at = (): number => run.events.length;
  const state: { onAdd: ((step: PlanStep) => void) | undefined } = { onAdd: undefined };
  const planning = new Planning(run.core, {
    context: () => {
      log.push(`context@${at()}`);
      return context();
    },
    add: (step, source) => {
      log.push(`add ${step.id}@${at()}`);
      sources.push(source);
      run.table.add(step, source);
      state.onAdd?.(step);
    },
    draft: (draft) => log.push(`draft ${draft.id}@${at()}`),
    sourceEnded: (source, missing) => {
      log.push(`sourceEnded ${source.attempt}@${at()}`);
      ended.push({ source, state: source.state, missing });
    },
    release: (ids) => {
      released.push(ids);
    },
    executing: () => log.push(`executing@${at()}`),
  });
  return {
    ...run,
    planning,
    log,
    sources,
    ended,
    released,
    /** Calls `hook` after each step was added. */
    afterAdd: (hook: (step: PlanStep) => void) => {
      state.onAdd = hook;
    },
  };
}

describe("Planning", () => {
  it("reads the context first, then emits plan-start, hands each step over, and ends with plan-end, executing and the plan's end", async () => {
    const context = deferred<string>();
    const planner = createScriptedPlanner(async function* () {
      yield* planEvents([tool("s1", "read"), tool("s2", "read", { x: "{{s9}}" }), reply("s3", "done")], {
        usage: { modelCalls: 0, inputTokens: 7, outputTokens: 3 },
      });
    });
    const { planning, log, events, types, ended, sources } = setup(
      planner,
      { profile: "terse" },
      () => context.promise,
    );
    const running = planning.run();
    await settle();
    expect(types()).toEqual([]);
    expect(planner.requests).toHaveLength(0);
    context.resolve("Conversation so far:\nhi");
    await running;
    expect(planner.requests[0]).toMatchObject({ query: "q", context: "Conversation so far:\nhi", profile: "terse" });
    expect(log).toEqual(["context@0", "add s1@1", "add s2@1", "add s3@1", "executing@2", "sourceEnded 1@2"]);
    expect(types()).toEqual(["plan-start", "plan-end"]);
    expect(events[0]).toMatchObject({ type: "plan-start", kind: "plan", query: "q", attempt: 1 });
    expect(lastOf(events, "plan-end")).toEqual({
      type: "plan-end",
      runId: "r1",
      t: 0,
      clean: true,
      finishReason: "stop",
      fallback: false,
      steps: 3,
      modelCalls: 0,
      inputTokens: 7,
      outputTokens: 3,
    });
    // Every step came from the first plan's source, which ended clean; s9 never came.
    expect(new Set(sources)).toEqual(new Set([planning.source]));
    expect(ended).toEqual([{ source: planning.source, state: "clean", missing: ["s9"] }]);
    expect(planning.ended).toBe(true);
    expect(planning.error).toBeUndefined();
  });

  it("asks no planner and emits nothing when the run ended while the context was read; an empty context is left out", async () => {
    const planner = createScriptedPlanner(async function* () {
      yield* planEvents([reply("s1", "x")]);
    });
    const stopped = setup(planner);
    stopped.end();
    await stopped.planning.run();
    expect(stopped.types()).toEqual([]);
    expect(planner.requests).toHaveLength(0);
    expect(stopped.log).toEqual(["context@0"]);

    const { planning } = setup(planner);
    await planning.run();
    expect(planner.requests).toHaveLength(1);
    expect(Object.hasOwn(planner.requests[0] ?? {}, "context")).toBe(false);
    expect(Object.hasOwn(planner.requests[0] ?? {}, "profile")).toBe(false);
  });

  it("counts a planner with a model as one model call while it streams, and its reported usage once at the end", async () => {
    const seen: number[] = [];
    let limits: { usage: { modelCalls: number } } | undefined;
    const script = async function* (): AsyncGenerator<PlannerEvent> {
      seen.push(limits?.usage.modelCalls ?? -1);
      yield* planEvents([reply("s1", "x")], { usage: { modelCalls: 3, inputTokens: 10, outputTokens: 5 } });
    };
    const withModel = setup(createScriptedPlanner(script, { model: noModel }));
    limits = withModel.limits;
    await withModel.planning.run();
    expect(withModel.limits.usage).toMatchObject({ modelCalls: 3, inputTokens: 10, outputTokens: 5 });
    expect(lastOf(withModel.events, "plan-end")).toMatchObject({ modelCalls: 3, inputTokens: 10, outputTokens: 5 });

    const without = setup(createScriptedPlanner(script));
    limits = without.limits;
    await without.planning.run();
    expect(without.limits.usage.modelCalls).toBe(3);
    expect(seen).toEqual([1, 0]);
  });

  it("keeps the usage of finished turns when the planner fails, plus the call that failed, and reports the error", async () => {
    const planner = createScriptedPlanner(async function* (request) {
      request.onUsage?.({ modelCalls: 2, inputTokens: 40, outputTokens: 4 });
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      throw new Error("model went away");
    });
    const { planning, events, limits, log } = setup(planner);
    await planning.run();
    expect(planning.error).toEqual({ code: "model-error", message: "model went away" });
    expect(lastOf(events, "plan-end")).toMatchObject({
      clean: false,
      finishReason: "error",
      steps: 1,
      modelCalls: 3,
      inputTokens: 40,
      outputTokens: 4,
      error: { code: "model-error", message: "model went away" },
    });
    expect(limits.usage).toMatchObject({ modelCalls: 3, inputTokens: 40, outputTokens: 4 });
    expect(planning.source.state).toBe("unclean");
    expect(log.slice(-2)).toEqual(["executing@2", "sourceEnded 1@2"]);
  });

  it("passes the reply drafts on and lends the planner the run's signal", async () => {
    const planner = createScriptedPlanner(async function* (request) {
      request.onReplyDraft?.({ id: "s1", index: 0, text: "Hel" });
      request.onReplyDraft?.({ id: "s1", index: 0, text: "Hello" });
      yield* planEvents([reply("s1", "Hello")]);
    });
    const { planning, log, core } = setup(planner);
    await planning.run();
    expect(log.filter((line) => line.startsWith("draft"))).toEqual(["draft s1@1", "draft s1@1"]);
    expect(planner.requests[0]?.signal).toBe(core.signal);
  });

  it("reports each issue, counts the dropped ones on the source, and numbers the repairs", async () => {
    const planner = createScriptedPlanner(async function* () {
      yield { type: "issue", issue, action: "dropped" };
      yield { type: "repair", attempt: 1, issues: [issue] };
      yield { type: "issue", issue, action: "repaired" };
      yield { type: "issue", issue, action: "dropped" };
      yield { type: "repair", attempt: 2, issues: [issue] };
      yield* planEvents([reply("s1", "x")]);
    });
    const { planning, events, types } = setup(planner);
    await planning.run();
    expect(types()).toEqual([
      "plan-start",
      "step-issue",
      "plan-start",
      "step-issue",
      "step-issue",
      "plan-start",
      "plan-end",
    ]);
    expect(events.filter((event) => event.type === "plan-start")).toMatchObject([
      { kind: "plan", attempt: 1 },
      { kind: "repair", attempt: 1 },
      { kind: "repair", attempt: 2 },
    ]);
    expect(events[3]).toMatchObject({ type: "step-issue", action: "repaired", issue });
    expect(planning.issues).toBe(3);
    expect(planning.source.dropped).toBe(2);
  });

  it("ends a turn's source at turn-end and gives the next turn's steps a new source", async () => {
    const planner = createScriptedPlanner(async function* () {
      yield { type: "step", step: tool("s1", "pay"), index: 0 };
      yield { type: "turn-end", turn: 1, clean: true, finishReason: "tool-calls" };
      yield { type: "step", step: tool("s2", "pay"), index: 1 };
      yield { type: "turn-end", turn: 2, clean: false, finishReason: "length" };
      yield* planEvents([reply("s3", "x")]);
    });
    const { planning, sources, ended } = setup(planner);
    await planning.run();
    expect(sources.map((source) => source.attempt)).toEqual([1, 2, 3]);
    expect(ended.map(({ source, state, missing }) => [source.attempt, state, missing])).toEqual([
      [1, "clean", []],
      [2, "unclean", []],
      [3, "clean", []],
    ]);
    expect(planning.source).toBe(sources[2]);
  });

  it("ends unclean when done is not clean, when it never comes, and when the run lost a step of the source", async () => {
    const unclean = setup(
      createScriptedPlanner(async function* () {
        yield* planEvents([reply("s1", "x")], { clean: false, finishReason: "length", fallback: true });
      }),
    );
    await unclean.planning.run();
    expect(lastOf(unclean.events, "plan-end")).toMatchObject({ clean: false, finishReason: "length", fallback: true });
    expect(unclean.planning.source.state).toBe("unclean");

    const missing = setup(
      createScriptedPlanner(async function* () {
        yield { type: "step", step: reply("s1", "x"), index: 0 };
      }),
    );
    await missing.planning.run();
    expect(lastOf(missing.events, "plan-end")).toMatchObject({ clean: false, finishReason: "missing", steps: 1 });
    expect(Object.hasOwn(lastOf(missing.events, "plan-end"), "error")).toBe(false);

    const lost = setup(
      createScriptedPlanner(async function* () {
        yield* planEvents([reply("s1", "x")]);
      }),
    );
    lost.planning.source.lost = true;
    await lost.planning.run();
    expect(lastOf(lost.events, "plan-end").clean).toBe(false);
    expect(lost.planning.source.state).toBe("unclean");
  });

  it("runs the steps a planner reports only in done, and the streamed ones once", async () => {
    const late = tool("s2", "read");
    const planner = createScriptedPlanner(async function* () {
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      yield {
        type: "done",
        steps: [tool("s1", "read"), late, reply("s3", "x")],
        clean: true,
        finishReason: "stop",
        fallback: false,
        usage: { modelCalls: 0 },
      };
    });
    const { planning, log, table } = setup(planner);
    await planning.run();
    expect(log.filter((line) => line.startsWith("add"))).toEqual(["add s1@1", "add s2@1", "add s3@1"]);
    expect(table.get("s2")?.step).toBe(late);
  });

  it("ends a planner that goes silent for longer than one model call may take with a timeout", async () => {
    const clock = createFakeClock();
    const planner = createScriptedPlanner(async function* (request) {
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      await new Promise((resolve) => request.signal?.addEventListener("abort", resolve));
    });
    const { planning, events, log } = setup(planner, { clock, modelTimeouts: { idleMs: 50, totalMs: 400 } });
    const running = planning.run();
    await settle();
    clock.advance(399);
    await settle();
    expect(planning.ended).toBe(false);
    clock.advance(1);
    await running;
    expect(planning.error).toEqual({
      code: "timeout",
      message: "Planning timed out: the model sent nothing for 400 ms",
    });
    expect(lastOf(events, "plan-end")).toMatchObject({ clean: false, finishReason: "error", t: 400 });
    expect(planner.closed).toBe(true);
    expect(log.at(-1)).toBe("sourceEnded 1@2");
  });

  it("stop ends the plan with the run's error and emits plan-end once", async () => {
    const planner = createScriptedPlanner(async function* (request) {
      request.onUsage?.({ modelCalls: 1 });
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      await new Promise(() => undefined);
    });
    const { planning, events, types, log, end, controller } = setup(planner);
    void planning.run();
    await settle();
    // As the run stops: it ends, its signal fires, then planning is asked to stop.
    end();
    controller.abort();
    const error = { code: "aborted", message: "The run was aborted" };
    planning.stop(error);
    expect(lastOf(events, "plan-end")).toMatchObject({
      clean: false,
      finishReason: "error",
      steps: 1,
      modelCalls: 1,
      error,
    });
    expect(planning.source.state).toBe("unclean");
    await settle();
    expect(planner.closed).toBe(true);
    planning.stop(error);
    expect(types().filter((type) => type === "plan-end")).toHaveLength(1);
    expect(log).not.toContain("executing@2");
  });

  it("stop closes the planner's stream at once, even before the signal reaches it", async () => {
    let after = false;
    const planner = createScriptedPlanner(async function* () {
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      after = true;
      await new Promise(() => undefined);
    });
    const run = setup(planner);
    // A step whose start ends the run synchronously (a budget, an internal error) stops planning from inside `add`.
    run.afterAdd(() => {
      run.end();
      run.planning.stop({ code: "aborted", message: "stopped" });
    });
    await run.planning.run();
    expect(planner.closed).toBe(true);
    expect(after).toBe(false);
    expect(run.types()).toEqual(["plan-start", "plan-end"]);
  });

  it("adds nothing and ends no plan once the run ended while the planner streamed", async () => {
    let stopRun: () => void = () => undefined;
    const planner = createScriptedPlanner(async function* (request) {
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      stopRun();
      request.onUsage?.({ modelCalls: 5 });
      yield* planEvents([tool("s2", "read")]);
    });
    const { planning, types, log, end, limits } = setup(planner);
    stopRun = end;
    await planning.run();
    expect(types()).toEqual(["plan-start"]);
    expect(log).toEqual(["context@0", "add s1@1"]);
    expect(limits.usage.modelCalls).toBe(0);
  });

  it("lets the planner await its steps' outcomes — marked heard, released from re-plans, answered from the events — with no time limit on the wait", async () => {
    const clock = createFakeClock();
    let answered: StepOutcome[] | undefined;
    const planner = createScriptedPlanner(async function* (request) {
      yield { type: "step", step: tool("s1", "read"), index: 0 };
      yield { type: "step", step: tool("s2", "read"), index: 1 };
      yield { type: "turn-end", turn: 1, clean: true, finishReason: "tool-calls" };
      answered = await request.awaitOutcomes?.(["s1", "s2"]);
      yield* planEvents([reply("s3", "x")]);
    });
    const { planning, table, released } = setup(planner, { clock, modelTimeouts: { idleMs: 50, totalMs: 400 } });
    const running = planning.run();
    await settle();
    expect(released).toEqual([["s1", "s2"]]);
    // Waiting for its steps is no silence of the planner's.
    clock.advance(1_000);
    await settle();
    expect(table.get("s1")).toMatchObject({ handled: true, heard: true });
    expect(planning.ended).toBe(false);
    planning.record({
      type: "step-end",
      runId: "r1",
      t: 0,
      stepId: "s1",
      attempt: 1,
      result: 4,
      durationMs: 0,
      cached: false,
    });
    await settle();
    expect(answered).toBeUndefined();
    planning.record({
      type: "step-error",
      runId: "r1",
      t: 0,
      stepId: "s2",
      attempt: 1,
      error: { code: "tool-error", message: "down" },
      final: true,
      durationMs: 0,
    });
    await running;
    expect(answered).toEqual([
      { id: "s1", status: "succeeded", result: 4 },
      { id: "s2", status: "failed", error: "down" },
    ]);
    expect(planning.error).toBeUndefined();
  });

  it("emits exactly one plan-end, last, whatever the planner streams and however it ends", async () => {
    const event = fc.oneof(
      fc.constant("step" as const),
      fc.constantFrom("dropped" as const, "repaired" as const),
      fc.constant("repair" as const),
      fc.boolean().map((clean) => ({ turnEnd: clean })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 12 }),
        fc.constantFrom("clean", "unclean", "missing", "throw"),
        async (script, ending) => {
          let steps = 0;
          const planner = createScriptedPlanner(async function* () {
            for (const item of script) {
              if (item === "step") {
                const step: PlanStep = tool(`s${++steps}`, "read");
                yield { type: "step", step, index: steps - 1 };
              } else if (item === "dropped" || item === "repaired") yield { type: "issue", issue, action: item };
              else if (item === "repair") yield { type: "repair", attempt: 1, issues: [] };
              else yield { type: "turn-end", turn: 1, clean: item.turnEnd, finishReason: "tool-calls" };
            }
            if (ending === "throw") throw new Error("broken");
            if (ending !== "missing")
              yield {
                type: "done",
                steps: [],
                clean: ending === "clean",
                finishReason: "stop",
                fallback: false,
                usage: { modelCalls: 0 },
              };
          });
          const { planning, events, ended, log } = setup(planner);
          await planning.run();
          const types = events.map((each) => each.type);
          expect(types.filter((type) => type === "plan-end")).toHaveLength(1);
          expect(types.at(-1)).toBe("plan-end");
          expect(lastOf(events, "plan-end")).toMatchObject({ clean: ending === "clean", steps });
          const repairs = events.filter((each) => each.type === "plan-start" && each.kind === "repair");
          expect(repairs.map((each) => (each.type === "plan-start" ? each.attempt : 0))).toEqual(
            repairs.map((_, index) => index + 1),
          );
          expect(ended).toHaveLength(script.filter((item) => typeof item === "object").length + 1);
          expect(log.filter((line) => line.startsWith("executing"))).toHaveLength(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
