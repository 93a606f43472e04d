import { describe, expect, it } from "vitest";
import { parseJsonl } from "../../src/events/parse-jsonl.ts";
import { replay } from "../../src/events/replay.ts";
import { toJsonl } from "../../src/events/to-jsonl.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { createMemoryCache } from "../../src/runtime/create-memory-cache.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, createFakePlanner, invariantProblems, reply, tool } from "./fake-planner.ts";

/** A read-only tool that answers with what it was given, and a log of what it saw. */
function createEchoTool(answer: (x: unknown) => unknown = (x) => ({ seen: x })): {
  registry: ToolRegistry;
  seen: unknown[];
} {
  const seen: unknown[] = [];
  const registry = new ToolRegistry().register([
    {
      name: "probe",
      description: "Reads x",
      inputSchema: { type: "object", properties: { x: {} } },
      annotations: { readOnlyHint: true },
      execute: async (args: Record<string, unknown>) => {
        seen.push(args["x"]);
        return answer(args["x"]);
      },
    },
  ]);
  return { registry, seen };
}

/** Runs `probe(first)` then `probe(second)`, one at a time, with caching on. */
async function runPair(first: unknown, second: unknown, cache: "run" | "shared") {
  const { registry, seen } = createEchoTool();
  const planner = createFakePlanner({
    steps: [tool("s1", "probe", { x: first }), tool("s2", "probe", { x: second }), reply("s3", "done")],
  });
  const runtime = new AgentRuntime({
    planner,
    registry,
    memory: false,
    maxConcurrency: 1,
    ...(cache === "shared" ? { cache: createMemoryCache() } : {}),
  });
  const run = runtime.run("go");
  const events = await collect(run);
  expect(invariantProblems(events)).toEqual([]);
  return { state: run.state, events, seen };
}

describe("numbers JSON cannot hold", () => {
  for (const cache of ["run", "shared"] as const) {
    for (const [first, second] of [
      [Number.NaN, null],
      [Number.POSITIVE_INFINITY, null],
      [Number.NEGATIVE_INFINITY, null],
    ] as const) {
      it(`a step called with x: ${second} is not served the result cached for x: ${first} (${cache} cache)`, async () => {
        const { state, seen, events } = await runPair(first, second, cache);
        // A step holding a number JSON cannot carry is dropped when planned, naming the path and the value.
        const issue = events.find((event) => event.type === "step-issue");
        expect(issue).toMatchObject({ action: "dropped", issue: { code: "invalid-step", stepId: "s1" } });
        expect(issue?.type === "step-issue" && issue.issue.message).toContain(`${String(first)} at /arguments/x`);
        const s2 = state.steps.find((step) => step.step.id === "s2");
        expect(state.steps.some((step) => step.step.id === "s1")).toBe(false);
        expect(s2?.status).toBe("succeeded");
        expect(s2?.cached).not.toBe(true);
        expect(s2?.result).toEqual({ seen: null });
        expect(seen).toEqual([null]);
      });
    }

    for (const [first, second] of [
      [-0, 0],
      [0, -0],
    ] as const) {
      it(`a step called with x: ${Object.is(second, -0) ? "-0" : "0"} is not served the result cached for the other zero (${cache} cache)`, async () => {
        const { state, seen } = await runPair(first, second, cache);
        expect(seen).toHaveLength(2);
        expect(Object.is(seen[0], first)).toBe(true);
        expect(Object.is(seen[1], second)).toBe(true);
        const s2 = state.steps[1];
        expect(s2?.cached).not.toBe(true);
        expect(Object.is((s2?.result as { seen: number }).seen, second)).toBe(true);
      });
    }

    it(`the same call is still served from the ${cache} cache`, async () => {
      const { state, seen } = await runPair(-0, -0, cache);
      expect(seen).toHaveLength(1);
      expect(state.steps[1]?.cached).toBe(true);
      expect(Object.is((state.steps[1]?.result as { seen: number }).seen, -0)).toBe(true);
    });
  }

  it("a result holding NaN or an infinity fails its step with invalid-result naming the path and the value", async () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const { registry } = createEchoTool(() => ({ list: [1, { deep: bad }] }));
      const planner = createFakePlanner({ steps: [tool("s1", "probe", { x: 1 }), reply("s2", "done")] });
      const run = new AgentRuntime({ planner, registry, memory: false }).run("go");
      await collect(run);
      expect(run.state.steps[0]?.error).toMatchObject({ code: "invalid-result" });
      expect(run.state.steps[0]?.error?.message).toBe(
        `The result of step "s1" (tool "probe") cannot be copied: ${String(bad)} at /list/1/deep`,
      );
    }
  });

  it("the JSONL log replays to the live state, -0 included", async () => {
    const { registry } = createEchoTool((x) => ({ seen: x, list: [-0, 0, x] }));
    const planner = createFakePlanner({
      steps: [tool("s1", "probe", { x: -0 }), tool("s2", "probe", { x: 0 }), reply("s3", "{{s1.seen}}")],
    });
    const run = new AgentRuntime({ planner, registry, memory: false, maxConcurrency: 1 }).run("go");
    const events = await collect(run);
    const replayed = replay(parseJsonl(toJsonl(events)));
    // toEqual tells -0 from 0.
    expect(replayed.steps).toEqual(run.state.steps);
    expect(Object.is((replayed.steps[0]?.result as { list: number[] }).list[0], -0)).toBe(true);
    expect(Object.is((replayed.steps[1]?.result as { seen: number }).seen, 0)).toBe(true);
  });
});
