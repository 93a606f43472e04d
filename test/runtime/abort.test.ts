import { describe, expect, it } from "vitest";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import {
  collect,
  createEchoModel,
  createFakePlanner,
  delay,
  invariantProblems,
  llm,
  reply,
  tool,
} from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

describe("abort", () => {
  it("one signal cancels the plan stream and every running tool; run-end comes within 50 ms", async () => {
    // The bound is on the best of three tries, so that a pause of the machine's
    // scheduler cannot fail it; waiting for a tool or a timer would fail all three.
    let best = Infinity;
    for (let attempt = 0; attempt < 3 && best >= 50; attempt++) best = Math.min(best, await cancelEverything());
    expect(best).toBeLessThan(50);
  });

  async function cancelEverything(): Promise<number> {
    const signals: AbortSignal[] = [];
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "stubborn",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          // Ignores its signal and never settles: the runtime must not wait for it.
          execute: (_args, { signal }) => {
            if (signal !== undefined) signals.push(signal);
            return new Promise(() => undefined);
          },
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [
        tool("s1", "stubborn", { n: 1 }),
        tool("s2", "stubborn", { n: 2 }),
        tool("s3", "lookup", { q: "{{s1.n}}" }),
      ],
      hang: true,
    });
    const runtime = new AgentRuntime({ planner, registry, memory: false });
    const controller = new AbortController();
    const run = runtime.run("go", { signal: controller.signal });
    await delay(20);
    const abortedAt = performance.now();
    controller.abort();
    const events = await collect(run);
    const endedAfter = performance.now() - abortedAt;
    expect(invariantProblems(events)).toEqual([]);
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(planner.log.requests[0]?.signal?.aborted).toBe(true);
    await delay(5);
    expect(planner.log.sawAbort).toBe(true);
    expect(run.state.reason).toBe("aborted");
    expect(run.state.steps.map((step) => [step.step.id, step.status, step.error?.code ?? step.skip?.code])).toEqual([
      ["s1", "failed", "aborted"],
      ["s2", "failed", "aborted"],
      ["s3", "skipped", "aborted"],
    ]);
    expect(run.state.reply).toBeUndefined();
    return endedAfter;
  }

  it("aborts a model call of an llm step and a retry wait", async () => {
    let best = Infinity;
    for (let attempt = 0; attempt < 3 && best >= 50; attempt++) best = Math.min(best, await abortModelAndRetry());
    expect(best).toBeLessThan(50);
  });

  async function abortModelAndRetry(): Promise<number> {
    const model = {
      requests: [] as AbortSignal[],
      async *stream(request: { signal?: AbortSignal }) {
        if (request.signal !== undefined) this.requests.push(request.signal);
        yield { type: "text" as const, text: "thinking" };
        await new Promise(() => undefined);
      },
    };
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [llm("s1", "think"), tool("s2", "fail"), reply("s3", "{{s1}}")],
      model,
    });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 5,
      backoff: { initialMs: 10_000, jitter: 0 },
    });
    const controller = new AbortController();
    const run = runtime.run("go", { signal: controller.signal });
    await delay(15);
    const abortedAt = performance.now();
    controller.abort();
    await run.done;
    const endedAfter = performance.now() - abortedAt;
    expect(model.requests[0]?.aborted).toBe(true);
    expect(invariantProblems(run.events)).toEqual([]);
    expect(run.state.steps.map((step) => step.status)).toEqual(["failed", "failed", "skipped"]);
    return endedAfter;
  }

  it("an already aborted signal ends the run at once; step() rejects", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({ steps: [tool("s1", "lookup", { q: "a" }), reply("s2", "x")] });
    const runtime = new AgentRuntime({ planner, registry, memory: false });
    const run = runtime.run("go", { signal: AbortSignal.abort() });
    const events = await collect(run);
    expect(events.map((event) => event.type)).toEqual(["plan-end", "run-end"]);
    expect(calls).toEqual([]);
    await expect(runtime.step("go", { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "aborted" });
  });

  it("leaving the event loop early aborts the run", async () => {
    const signals: AbortSignal[] = [];
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "wait",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: (_args, { signal }) => {
            if (signal !== undefined) signals.push(signal);
            return delay(1000, signal);
          },
        },
      ],
    });
    const planner = createFakePlanner({ steps: [tool("s1", "wait"), reply("s2", "x")] });
    const run = new AgentRuntime({ planner, registry, memory: false }).run("go");
    for await (const event of run) if (event.type === "step-start") break;
    const state = await run.done;
    expect(state.reason).toBe("aborted");
    expect(signals[0]?.aborted).toBe(true);
  });

  it("the deadline stops the run with reason deadline and a template reply", async () => {
    const { registry } = createTestRegistry({ latencyMs: 500 });
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "a" }), tool("s2", "lookup", { q: "b" }), reply("s3", "{{s1.value}}")],
    });
    const started = performance.now();
    const run = new AgentRuntime({ planner, registry, memory: false, budget: { deadlineMs: 20 } }).run("go");
    const state = await run.done;
    expect(performance.now() - started).toBeLessThan(200);
    expect(invariantProblems(run.events)).toEqual([]);
    expect(state.reason).toBe("deadline");
    expect(state.steps.map((step) => step.error?.code ?? step.skip?.code)).toEqual(["timeout", "timeout", "aborted"]);
    expect(state.reply?.source).toBe("template");
    expect(state.reply?.text).toBe(
      "Results:\n- s1 (lookup) failed: The run passed its deadline of 20 ms\n- s2 (lookup) failed: The run passed its deadline of 20 ms",
    );
  });

  it("the model for llm steps can be given explicitly", async () => {
    const model = createEchoModel(() => "explicit");
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [llm("s1", "x"), reply("s2", "{{s1}}")] });
    const state = await new AgentRuntime({ planner, registry, memory: false, model }).run("go").done;
    expect(state.reply?.text).toBe("explicit");
    const without = await new AgentRuntime({ planner, registry, memory: false, maxReplans: 0 }).run("go").done;
    expect(without.steps[0]?.error).toEqual({
      code: "model-error",
      message: 'Step "s1" needs a model and the runtime has none',
    });
  });
});
