/**
 * Asking the reflector about a failed step, on its own: when it is not
 * asked, what it is told, which answers count as no opinion, and the run's
 * own frozen copy of the arguments a `retry` changes.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeErrorInfo } from "../../../src/events/runtime-event.ts";
import type { PlanModel } from "../../../src/model/plan-model.ts";
import type { Reflection, ReflectionRequest, Reflector } from "../../../src/planner/reflector.ts";
import { reflectOnFailure } from "../../../src/runtime/run/reflect-on-failure.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { createPartRun, flush, running, toolStep } from "./part-fixtures.ts";

const failure: RuntimeErrorInfo = { code: "tool-error", message: "404" };

/** A run whose reflector answers `answer` and records what it was asked. */
function setup(
  answer: (request: ReflectionRequest) => unknown,
  options: { reflectionRetries?: number; hearsOutcomes?: boolean } = {},
) {
  const asked: ReflectionRequest[] = [];
  const reflector: Reflector = {
    reflect: (request) => {
      asked.push(request);
      return answer(request) as Reflection | undefined;
    },
  };
  const run = createPartRun({ reflector, ...options });
  const entry = running(run.table, toolStep("s2", "pay", { amount: "{{s1.total}}" }));
  entry.attempts = 2;
  entry.lastInput = { amount: 12 };
  return { ...run, asked, entry };
}

describe("reflectOnFailure: when the reflector is not asked", () => {
  it("answers nothing without a reflector", async () => {
    const run = createPartRun();
    const entry = running(run.table, toolStep("s1", "pay"));
    expect(await reflectOnFailure(run.core, undefined, entry, failure)).toBeUndefined();
  });

  it("asks until the step used its reflections, then no more", async () => {
    const { core, entry, asked } = setup(() => ({ action: "new_plan", reason: "r" }), { reflectionRetries: 2 });
    entry.reflections = 1;
    expect(await reflectOnFailure(core, undefined, entry, failure)).toEqual({ action: "new_plan", reason: "r" });
    entry.reflections = 2;
    expect(await reflectOnFailure(core, undefined, entry, failure)).toBeUndefined();
    expect(asked.length).toBe(1);
  });

  it("leaves a turn planner's own steps to its model, but asks about a re-plan patch's", async () => {
    const { core, table, asked } = setup(() => ({ action: "abort", reason: "r" }), { hearsOutcomes: true });
    const fromPlan = running(table, toolStep("s3", "pay"));
    const patch: StepSource = { kind: "replan", attempt: 1, state: "clean" };
    const fromPatch = running(table, toolStep("s4", "pay"), patch);
    expect(await reflectOnFailure(core, undefined, fromPlan, failure)).toBeUndefined();
    expect(await reflectOnFailure(core, undefined, fromPatch, failure)).toEqual({ action: "abort", reason: "r" });
    expect(asked.map((request) => request.step.id)).toEqual(["s4"]);
  });

  it("does not ask about an abort or a spent budget, nor once the run stopped", async () => {
    const { core, entry, asked, controller } = setup(() => ({ action: "abort", reason: "r" }));
    expect(await reflectOnFailure(core, undefined, entry, { code: "aborted", message: "x" })).toBeUndefined();
    expect(await reflectOnFailure(core, undefined, entry, { code: "budget-exceeded", message: "x" })).toBeUndefined();
    expect(asked.length).toBe(0);
    expect(await reflectOnFailure(core, undefined, entry, { code: "timeout", message: "x" })).toMatchObject({
      action: "abort",
    });
    controller.abort();
    expect(await reflectOnFailure(core, undefined, entry, failure)).toBeUndefined();
    expect(asked.length).toBe(1);
  });
});

describe("reflectOnFailure: what the reflector is told", () => {
  it("tells the query, the step, its last input and error, its attempts, the completed steps, tool and model", async () => {
    const { core, table, entry, asked, registry, controller } = setup(() => undefined);
    const done = running(table, toolStep("s1", "read"));
    table.succeed(done, { total: 12 });
    const model: PlanModel = { stream: () => (async function* () {})() };
    expect(await reflectOnFailure(core, model, entry, failure)).toBeUndefined();
    const request = asked[0] as ReflectionRequest;
    expect(request).toEqual({
      query: "the question",
      step: entry.step,
      input: { amount: 12 },
      error: failure,
      attempts: 2,
      completed: [{ step: done.step, result: { total: 12 } }],
      signal: controller.signal,
      tool: registry.get("pay"),
      model,
    });
    expect(request.tool?.name).toBe("pay");
  });

  it("gives no tool for an llm step and no model when the run has none", async () => {
    const { core, table, asked } = setup(() => undefined);
    const entry = running(table, { id: "l1", type: "llm", prompt: "Sum up" });
    await reflectOnFailure(core, undefined, entry, failure);
    expect(Object.hasOwn(asked[0] as object, "tool")).toBe(false);
    expect(Object.hasOwn(asked[0] as object, "model")).toBe(false);
  });
});

describe("reflectOnFailure: the verdict", () => {
  it("passes retry, new_plan and abort on, a synchronous or an awaited one", async () => {
    for (const verdict of [
      { action: "retry", reason: "flaky" },
      { action: "new_plan", reason: "wrong tool" },
      { action: "abort", reason: "hopeless" },
    ]) {
      const sync = setup(() => verdict);
      expect(await reflectOnFailure(sync.core, undefined, sync.entry, failure)).toEqual(verdict);
      const later = setup(async () => verdict);
      expect(await reflectOnFailure(later.core, undefined, later.entry, failure)).toEqual(verdict);
    }
  });

  it("takes a reflector that throws or rejects as no opinion", async () => {
    const throws = setup(() => {
      throw new Error("broken");
    });
    expect(await reflectOnFailure(throws.core, undefined, throws.entry, failure)).toBeUndefined();
    const rejects = setup(() => Promise.reject(new Error("broken")));
    expect(await reflectOnFailure(rejects.core, undefined, rejects.entry, failure)).toBeUndefined();
  });

  it("takes any other answer as no opinion, null and primitives included", async () => {
    for (const answer of [{ action: "skip", reason: "x" }, { reason: "x" }, null, "retry", 7, [], { action: 1 }]) {
      const { core, entry } = setup(() => answer);
      await expect(reflectOnFailure(core, undefined, entry, failure)).resolves.toBeUndefined();
      const later = setup(async () => answer);
      await expect(reflectOnFailure(later.core, undefined, later.entry, failure)).resolves.toBeUndefined();
    }
  });

  it("gives a reason that is not text as none", async () => {
    for (const reason of [undefined, 42, { why: "x" }, null]) {
      const { core, entry } = setup(() => ({ action: "new_plan", reason }));
      expect(await reflectOnFailure(core, undefined, entry, failure)).toEqual({ action: "new_plan", reason: "" });
    }
  });

  it("stops waiting for a reflector when the run is aborted", async () => {
    const { core, entry, controller } = setup(() => new Promise(() => undefined));
    let verdict: unknown = "pending";
    void reflectOnFailure(core, undefined, entry, failure).then((value) => (verdict = value));
    await flush();
    expect(verdict).toBe("pending");
    controller.abort();
    await flush();
    expect(verdict).toBeUndefined();
  });

  it("drops the verdict of a reflector that stopped the run while it answered", async () => {
    let stop = (): void => undefined;
    const { core, entry, controller } = setup(() => {
      stop();
      return { action: "abort", reason: "r" };
    });
    stop = () => controller.abort();
    expect(await reflectOnFailure(core, undefined, entry, failure)).toBeUndefined();
  });
});

describe("reflectOnFailure: changed arguments", () => {
  it("keeps its own frozen copy, which the reflector cannot change afterwards", async () => {
    const changes = { amount: 10, memo: { text: "again" } };
    const { core, entry } = setup(() => ({ action: "retry", reason: "smaller", arguments: changes }));
    const verdict = await reflectOnFailure(core, undefined, entry, failure);
    changes.amount = 10_000;
    changes.memo.text = "changed";
    expect(verdict).toEqual({ action: "retry", reason: "smaller", arguments: { amount: 10, memo: { text: "again" } } });
    const args = (verdict as unknown as { arguments: { memo: object } }).arguments;
    expect(args).not.toBe(changes);
    expect(Object.isFrozen(args)).toBe(true);
    expect(Object.isFrozen(args.memo)).toBe(true);
  });

  it("takes arguments that are not a plain JSON object as no opinion", async () => {
    for (const args of [["a"], "amount=1", 3, null, { amount: Number.NaN }, { call: () => 1 }]) {
      const { core, entry } = setup(() => ({ action: "retry", reason: "r", arguments: args }));
      expect(await reflectOnFailure(core, undefined, entry, failure)).toBeUndefined();
    }
  });

  it("ignores arguments on anything but a retry", async () => {
    const { core, entry } = setup(() => ({ action: "new_plan", reason: "r", arguments: { call: () => 1 } }));
    expect(await reflectOnFailure(core, undefined, entry, failure)).toMatchObject({ action: "new_plan" });
  });
});
