import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { collect, createFakePlanner, deferred, delay, invariantProblems, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const quiet = { memory: false, backoff: { initialMs: 1, jitter: 0 } } as const;

function indexOf(events: readonly RuntimeEvent[], predicate: (event: RuntimeEvent) => boolean): number {
  return events.findIndex(predicate);
}

describe("scheduling while the plan streams", () => {
  it("starts a ready read-only step in the same tick its step event arrives", async () => {
    const { registry, calls } = createTestRegistry({ latencyMs: 5 });
    const startedWhenResumed: boolean[] = [];
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "a" }),
        tool("s2", "lookup", { q: "b" }),
        reply("s3", "{{s1.value}} {{s2.value}}"),
      ],
      // The stream resumes only when the runtime asks for the next event: by then the tool must have started.
      afterStep: (step) => {
        if (step.type === "tool") startedWhenResumed.push(calls.some((call) => call.args["q"] === step.arguments["q"]));
      },
    });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    await runtime.run("go").done;
    expect(startedWhenResumed).toEqual([true, true]);
  });

  it("starts a read-only step before the planner's stream has ended", async () => {
    const { registry, calls } = createTestRegistry({ latencyMs: 1 });
    const toolStarted = deferred();
    let callsBeforeEnd = -1;
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "a" }), reply("s2", "{{s1.value}}")],
      // Hold the stream open until the tool started (or 500 ms passed); note the calls made before the stream ends.
      afterStep: async (step) => {
        if (step.id === "s1") await Promise.race([toolStarted.promise, delay(500)]);
        if (step.id === "s2") callsBeforeEnd = calls.length;
      },
    });
    const wrapped = registry.call.bind(registry);
    registry.call = (name, args, options) => {
      toolStarted.resolve();
      return wrapped(name, args, options);
    };
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const events = await collect(runtime.run("go"));
    expect(callsBeforeEnd).toBe(1);
    const start = indexOf(events, (event) => event.type === "step-start" && event.stepId === "s1");
    const planEnd = indexOf(events, (event) => event.type === "plan-end");
    expect(start).toBeGreaterThan(-1);
    expect(start).toBeLessThan(planEnd);
  });

  it("holds a side-effecting tool until the plan finished cleanly", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "send", { to: "bob" }),
        tool("s2", "remove", { id: "7" }),
        tool("s3", "put", { key: "k" }),
        reply("s4", "done"),
      ],
      stepDelayMs: 2,
      tailDelayMs: 20,
    });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const events = await collect(runtime.run("go"));
    expect(invariantProblems(events)).toEqual([]);
    const endedAt = planner.log.endedAt ?? Number.POSITIVE_INFINITY;
    const send = calls.find((call) => call.name === "send");
    const remove = calls.find((call) => call.name === "remove");
    const put = calls.find((call) => call.name === "put");
    expect(send?.startedAt).toBeGreaterThanOrEqual(endedAt);
    // Idempotent but explicitly destructive: still held.
    expect(remove?.startedAt).toBeGreaterThanOrEqual(endedAt);
    // Idempotent and not destructive is still not read-only: idempotence permits retries, never an early start.
    expect(put?.startedAt).toBeGreaterThanOrEqual(endedAt);
    const planned = events.filter((event) => event.type === "step-planned").map((event) => [event.step.id, event.safe]);
    expect(planned).toEqual([
      ["s1", false],
      ["s2", false],
      ["s3", false],
      ["s4", true],
    ]);
  });

  it("never runs a side-effecting step of an unclean plan", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "a" }),
        tool("s2", "send", { to: "{{s1.value}}" }),
        reply("s3", "sent to {{s2.sent}}"),
      ],
      clean: false,
    });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    const skipped = events.find((event) => event.type === "step-skipped" && event.stepId === "s2");
    expect(skipped).toMatchObject({ code: "unsafe-plan" });
    expect(run.state.steps.map((step) => step.status)).toEqual(["succeeded", "skipped", "skipped"]);
    expect(run.state.reason).toBe("failed");
  });

  it('eager "none" waits for the whole plan; "all" starts side effects early', async () => {
    const none = createTestRegistry();
    const plannerNone = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "a" }), reply("s2", "x")],
      tailDelayMs: 15,
    });
    await new AgentRuntime({ planner: plannerNone, registry: none.registry, ...quiet, eager: "none" }).run("go").done;
    expect(none.calls[0]?.startedAt).toBeGreaterThanOrEqual(plannerNone.log.endedAt ?? Number.POSITIVE_INFINITY);

    const all = createTestRegistry();
    const plannerAll = createFakePlanner({
      steps: [tool("s1", "send", { to: "a" }), reply("s2", "x")],
      tailDelayMs: 15,
    });
    await new AgentRuntime({ planner: plannerAll, registry: all.registry, ...quiet, eager: "all" }).run("go").done;
    expect(all.calls[0]?.startedAt).toBeLessThan(plannerAll.log.endedAt ?? 0);
  });

  it("runs independent steps in parallel up to maxConcurrency", async () => {
    let active = 0;
    let peak = 0;
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "slow",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: async (args) => {
            active++;
            peak = Math.max(peak, active);
            await delay(10);
            active--;
            return args;
          },
        },
      ],
    });
    const steps = Array.from({ length: 8 }, (_, index) => tool(`s${index + 1}`, "slow", { n: index }));
    const planner = createFakePlanner({ steps: [...steps, reply("s9", "ok")] });
    await new AgentRuntime({ planner, registry, ...quiet, maxConcurrency: 3 }).run("go").done;
    expect(peak).toBe(3);
    peak = 0;
    await new AgentRuntime({ planner, registry, ...quiet, cache: false }).run("go").done;
    expect(peak).toBe(8);
  });

  it("starts a dependent step only after the step it references succeeded", async () => {
    const { registry, calls } = createTestRegistry({ latencyMs: 5 });
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "a" }),
        tool("s2", "lookup", { q: "b" }, { dependsOn: ["s1"] }),
        tool("s3", "lookup", { q: "{{s2.value}}" }),
        reply("s4", "{{s3.value}}"),
      ],
    });
    const state = await new AgentRuntime({ planner, registry, ...quiet }).run("go").done;
    expect(calls[1]?.startedAt).toBeGreaterThanOrEqual(calls[0]?.endedAt ?? Number.POSITIVE_INFINITY);
    expect(calls[2]?.startedAt).toBeGreaterThanOrEqual(calls[1]?.endedAt ?? Number.POSITIVE_INFINITY);
    expect(state.reply?.text).toBe("b!!");
  });

  it("skips the dependents of a failed step with a reason, and still runs the rest", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "fail"),
        tool("s2", "lookup", { q: "{{s1.value}}" }),
        tool("s3", "lookup", { q: "independent" }),
        reply("s4", "{{s3.value}}"),
      ],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, retries: 0, maxReplans: 0 }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "step-skipped")).toMatchObject({
      stepId: "s2",
      code: "dependency-failed",
      reason: 'It depends on step "s1", which failed',
    });
    expect(calls.map((call) => call.args["q"] ?? call.name)).toEqual(["fail", "independent"]);
    expect(run.state.reply).toEqual({ text: "independent!", source: "step", stepId: "s4" });
    expect(run.state.reason).toBe("failed");
    expect(run.state.error).toEqual({ code: "tool-error", message: "the service is down" });
  });
});
