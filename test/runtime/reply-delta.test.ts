/**
 * The answer as it is written: `reply-delta` events.
 */
import { describe, expect, it } from "vitest";
import { replay } from "../../src/events/replay.ts";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanModel } from "../../src/model/plan-model.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, createFakePlanner, deferred, invariantProblems, reply, tool } from "./fake-planner.ts";

const quiet = { memory: false, reflector: noOpReflector, retries: 0 } as const;

/** The deltas of a run, in order. */
function deltasOf(events: readonly RuntimeEvent[]): string[] {
  return events.flatMap((event) => (event.type === "reply-delta" ? [event.delta] : []));
}

/** Two gated read-only tools, so a test decides when each step ends. */
function gatedTools() {
  const gates = { a: deferred<unknown>(), b: deferred<unknown>() };
  const registry = new ToolRegistry().register([
    { name: "a", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => gates.a.promise },
    { name: "b", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => gates.b.promise },
  ]);
  return { registry, gates };
}

/** Waits until the run has emitted an event matching `predicate`. */
async function until(events: readonly RuntimeEvent[], predicate: (event: RuntimeEvent) => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !events.some(predicate); tries++)
    await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("reply-delta", () => {
  it('"early" streams a reply step\'s text as its references become available', async () => {
    const { registry, gates } = gatedTools();
    const planner = createFakePlanner({
      steps: [tool("s1", "a"), tool("s2", "b"), reply("s3", "First {{s1.x}}, then {{s2.y}}.")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, replyStreaming: "early" }).run("go");
    await until(run.events, (event) => event.type === "reply-delta");
    expect(deltasOf(run.events)).toEqual(["First "]);
    gates.b.resolve({ y: "B" });
    await until(run.events, (event) => event.type === "step-end" && event.stepId === "s2");
    // s2 ended, but s1 comes first in the text: nothing more yet.
    expect(deltasOf(run.events)).toEqual(["First "]);
    gates.a.resolve({ x: "A" });
    const state = await run.done;
    expect(deltasOf(run.events)).toEqual(["First ", "A, then B."]);
    expect(state.reply?.text).toBe("First A, then B.");
    expect(state.replyDraft).toBe("First A, then B.");
    expect(invariantProblems(run.events)).toEqual([]);
    const replyAt = run.events.findIndex((event) => event.type === "reply");
    const lastDelta = run.events.map((event) => event.type).lastIndexOf("reply-delta");
    expect(lastDelta).toBeLessThan(replyAt);
  });

  it('with no re-plan possible, "safe" writes the reply once every step it references succeeded, not before', async () => {
    const { registry, gates } = gatedTools();
    const planner = createFakePlanner({ steps: [tool("s1", "a"), tool("s2", "b"), reply("s3", "Got {{s1.x}}.")] });
    const run = new AgentRuntime({ planner, registry, ...quiet, maxReplans: 0 }).run("go");
    await until(run.events, (event) => event.type === "plan-end");
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The literal text could go out, but s1 may still fail: nothing is written yet.
    expect(deltasOf(run.events)).toEqual([]);
    gates.a.resolve({ x: "A" });
    await until(run.events, (event) => event.type === "reply-delta");
    // s2 still runs, and the reply does not reference it: the whole text goes out.
    expect(run.events.some((event) => event.type === "step-end" && event.stepId === "s2")).toBe(false);
    expect(deltasOf(run.events)).toEqual(["Got A."]);
    gates.b.resolve({ y: "B" });
    const state = await run.done;
    expect(state.reply).toEqual({ text: "Got A.", source: "step", stepId: "s3" });
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it('with no re-plan possible, "safe" answers a reply whose step failed the same way whenever it failed', async () => {
    // Before the plan ends, just after, or long after: never a note, always the results.
    for (const failAfterMs of [undefined, 0, 1, 5, 20]) {
      const registry = new ToolRegistry().register({
        name: "bad",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: async () => {
          if (failAfterMs !== undefined) await new Promise((resolve) => setTimeout(resolve, failAfterMs));
          throw new Error("down");
        },
      });
      const planner = createFakePlanner({ steps: [tool("s1", "bad"), reply("s2", "It is {{s1.y}}.")], tailDelayMs: 2 });
      const run = new AgentRuntime({ planner, registry, ...quiet, integrate: "template", maxReplans: 0 }).run("go");
      const events = await collect(run);
      expect(run.state.reply).toEqual({ text: "Results:\n- s1 (bad) failed: down", source: "template" });
      expect(run.state.steps[1]?.skip?.code).toBe("dependency-failed");
      expect(deltasOf(events)).toEqual([run.state.reply?.text]);
      expect(invariantProblems(events)).toEqual([]);
    }
  });

  it('with re-plans possible, "safe" writes the reply step whole when it resolves', async () => {
    const { registry, gates } = gatedTools();
    const planner = createFakePlanner({ steps: [tool("s1", "a"), reply("s2", "Got {{s1.x}}")] });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("go");
    await until(run.events, (event) => event.type === "plan-end");
    expect(deltasOf(run.events)).toEqual([]);
    gates.a.resolve({ x: 1 });
    const state = await run.done;
    expect(deltasOf(run.events)).toEqual(["Got 1"]);
    expect(state.reply?.text).toBe("Got 1");
  });

  it('"early" streams at once and fixes the plan: a later failure becomes a note, not a re-plan', async () => {
    const registry = new ToolRegistry().register([
      {
        name: "ok",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ x: "fine" }),
      },
      {
        name: "bad",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error("down");
        },
      },
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "ok"), tool("s2", "bad"), reply("s3", "{{s1.x}} and {{s2.y}}")],
      replan: () => [reply("r1", "replanned")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, replyStreaming: "early" }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(planner.log.replans).toHaveLength(0);
    expect(run.state.reply).toEqual({ text: 'fine and [step "s2" failed]', source: "step", stepId: "s3" });
    expect(deltasOf(events).join("")).toBe(run.state.reply?.text);
  });

  it("a reply that is one reference is written when it resolves", async () => {
    const registry = new ToolRegistry().register([
      { name: "ok", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => ({ x: 1 }) },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "ok"), reply("s2", "{{s1}}")] });
    const events = await collect(new AgentRuntime({ planner, registry, ...quiet, maxReplans: 0 }).run("go"));
    expect(deltasOf(events)).toEqual(['{"x":1}']);
    expect(invariantProblems(events)).toEqual([]);
  });

  it("streams the model-integrated answer token by token, without leading or trailing white space", async () => {
    const chunks = ["  \n", "The ", "answer", " is ", "42", ".", "\n\n "];
    const model: PlanModel = {
      async *stream() {
        for (const text of chunks) yield { type: "text", text };
        yield { type: "finish", reason: "stop" };
      },
    };
    const registry = new ToolRegistry().register([
      { name: "ok", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => ({ x: 1 }) },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "ok")] });
    const run = new AgentRuntime({ planner, registry, ...quiet, model }).run("go");
    const events = await collect(run);
    expect(deltasOf(events)).toEqual(["The", " answer", " is", " 42", "."]);
    expect(run.state.reply).toEqual({ text: "The answer is 42.", source: "model" });
    expect(invariantProblems(events)).toEqual([]);
  });

  it("a template reply is one delta, and replay of the log equals the live state", async () => {
    const registry = new ToolRegistry().register([
      { name: "ok", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => ({ x: 1 }) },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "ok")] });
    const run = new AgentRuntime({ planner, registry, ...quiet, integrate: "template" }).run("go");
    const events = await collect(run);
    expect(deltasOf(events)).toEqual([run.state.reply?.text]);
    expect(replay(JSON.parse(JSON.stringify(events)) as RuntimeEvent[])).toEqual(JSON.parse(JSON.stringify(run.state)));
  });
});
