import { describe, expect, it } from "vitest";
import type { PlanModel, PlanModelPart } from "../../../src/model/plan-model.ts";
import type { PlannerEvent } from "../../../src/planner/planner-event.ts";
import { integrateAnswer } from "../../../src/runtime/run/integrate-answer.ts";
import { readPlannerEvents } from "../../../src/runtime/run/read-planner-events.ts";
import { readMemoryContext, writeRunMemory } from "../../../src/runtime/run/run-memory.ts";
import { systemClock } from "../../../src/shared/runtime-clock.ts";

const options = (idleMs: number) => ({
  clock: systemClock,
  idleMs,
  what: "Planning",
  signal: new AbortController().signal,
  isEnded: () => false,
});

describe("readPlannerEvents", () => {
  it("hands steps, issues and repairs over and returns done", async () => {
    async function* events(): AsyncGenerator<PlannerEvent> {
      yield { type: "step", step: { id: "s1", type: "reply", text: "x" }, index: 0 };
      yield { type: "repair", attempt: 1, issues: [] };
      yield { type: "done", steps: [], clean: true, finishReason: "stop", fallback: false, usage: { modelCalls: 2 } };
    }
    const seen: string[] = [];
    const done = await readPlannerEvents(
      events(),
      { step: (step) => seen.push(step.id), issue: () => seen.push("issue"), repair: () => seen.push("repair") },
      options(1000),
    );
    expect(seen).toEqual(["s1", "repair"]);
    expect(done?.usage.modelCalls).toBe(2);
  });

  it("ends a silent planner with a timeout", async () => {
    const silent: AsyncIterable<PlannerEvent> = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }),
    };
    await expect(
      readPlannerEvents(silent, { issue: () => undefined, repair: () => undefined }, options(10)),
    ).rejects.toMatchObject({ code: "timeout", message: "Planning timed out: the model sent nothing for 10 ms" });
  });
});

describe("integrateAnswer", () => {
  const model = (parts: PlanModelPart[], failAfter?: number): PlanModel => ({
    async *stream() {
      for (const [index, part] of parts.entries()) {
        if (index === failAfter) throw new Error("connection reset");
        yield part;
      }
    },
  });

  it("gives nothing for a call that fails before writing, and keeps a broken-off answer with the fallback after it", async () => {
    const written: string[] = [];
    expect(
      await integrateAnswer(
        model([{ type: "text", text: "x" }], 0),
        { prompt: "p" },
        (delta) => written.push(delta),
        () => false,
        () => "T",
      ),
    ).toBeUndefined();
    expect(
      await integrateAnswer(
        model([{ type: "finish", reason: "error" }]),
        { prompt: "p" },
        (delta) => written.push(delta),
        () => false,
        () => "T",
      ),
    ).toBeUndefined();
    expect(written).toEqual([]);
    const text = await integrateAnswer(
      model(
        [
          { type: "text", text: "Half " },
          { type: "text", text: "more" },
        ],
        1,
      ),
      { prompt: "p" },
      (delta) => written.push(delta),
      () => false,
      () => "T",
    );
    expect(text).toBe("Half\n\nT");
    expect(written.join("")).toBe(text);
  });
});

describe("run memory", () => {
  it("reads and writes within the limit, and a failing store gives nothing", async () => {
    const signal = new AbortController().signal;
    const stalled = {
      read: () => new Promise<never>(() => undefined),
      write: () => new Promise<never>(() => undefined),
    };
    expect(await readMemoryContext({ memory: stalled, clock: systemClock, timeoutMs: 5, signal }, "q")).toBe("");
    await writeRunMemory(
      { memory: stalled, clock: systemClock, timeoutMs: 5, signal },
      [{ kind: "result", runId: "r", query: "q", content: 1, at: 0 }],
      () => false,
    );
    const failing = {
      read: () => {
        throw new Error("down");
      },
      write: () => {
        throw new Error("down");
      },
    };
    expect(await readMemoryContext({ memory: failing, clock: systemClock, timeoutMs: 5, signal }, "q")).toBe("");
    const stored = {
      read: () => [{ kind: "result", runId: "r", query: "weather", content: { t: 21 }, at: 0 }],
      write: () => undefined,
    };
    expect(await readMemoryContext({ memory: stored, clock: systemClock, timeoutMs: 5, signal }, "weather")).toBe(
      'Memory of earlier runs:\n- [result] weather: {"t":21}',
    );
    // A store reached over RPC answers with a callable thenable: it is awaited, never read as the entries.
    const entries = [{ kind: "result", runId: "r", query: "weather", content: { t: 22 }, at: 0 }];
    const callable = Object.assign(() => undefined, {
      then: (resolve: (value: unknown) => void) => resolve(entries),
      map: () => {
        throw new Error("not the entries");
      },
    });
    const remote = { read: () => callable as unknown as Promise<typeof entries>, write: () => undefined };
    expect(await readMemoryContext({ memory: remote, clock: systemClock, timeoutMs: 50, signal }, "weather")).toBe(
      'Memory of earlier runs:\n- [result] weather: {"t":22}',
    );
  });
});
