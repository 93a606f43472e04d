import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { computeBackoff } from "../../src/runtime/compute-backoff.ts";
import { createMemoryCache } from "../../src/runtime/create-memory-cache.ts";
import { createMemoryStore } from "../../src/runtime/create-memory-store.ts";
import type { MemoryEntry } from "../../src/runtime/memory-store.ts";
import type { ResultCache } from "../../src/runtime/result-cache.ts";
import { canonicalJson } from "../../src/shared/canonical-json.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, createEchoModel, createFakePlanner, invariantProblems, llm, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

describe("result cache", () => {
  it("an opt-in shared cache reuses read-only results by tool and canonical arguments, never idempotent writes or side effects", async () => {
    const { registry, calls } = createTestRegistry();
    const cache = createMemoryCache();
    const runWith = (steps: PlanStep[]) => {
      const run = new AgentRuntime({ planner: createFakePlanner({ steps }), registry, memory: false, cache }).run("go");
      return collect(run).then((events) => ({ run, events }));
    };
    await runWith([tool("s1", "lookup", { q: "a" }), reply("s2", "{{s1.value}}")]);
    expect(cache.size).toBe(1);
    const { run, events } = await runWith([
      tool("s1", "lookup", { q: "a" }),
      tool("s2", "put", { key: "k", value: { b: 1, a: 2 } }, { dependsOn: ["s1"] }),
      tool("s3", "send", { to: "bob" }, { dependsOn: ["s2"] }),
      reply("s4", "{{s1.value}}"),
    ]);
    expect(invariantProblems(events)).toEqual([]);
    expect(
      events
        .filter((event) => event.type === "step-end")
        .map((event) => event.type === "step-end" && [event.stepId, event.cached]),
    ).toEqual([
      ["s1", true],
      ["s2", false],
      ["s3", false],
      ["s4", false],
    ]);
    expect(run.state.usage).toMatchObject({ cacheHits: 1, toolCalls: 2 });
    expect(run.state.reply?.text).toBe("a!");
    // The writes cleared the shared cache: what was read before them may be stale.
    expect(cache.size).toBe(0);
    await runWith([
      tool("s1", "put", { value: { a: 2, b: 1 }, key: "k" }),
      tool("s2", "lookup", { q: "a" }, { dependsOn: ["s1"] }),
      reply("s3", "{{s2.value}}"),
    ]);
    expect(calls.map((call) => call.name)).toEqual(["lookup", "put", "send", "put", "lookup"]);
    expect(cache.size).toBe(1);
  });

  it("a write that lands after its attempt was aborted clears what was read in between", async () => {
    let stored = "old";
    let release = (): void => undefined;
    let writeStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => {
      writeStarted = resolve;
    });
    let reads = 0;
    const registry = new ToolRegistry().register([
      {
        name: "read_value",
        description: "Reads the value",
        inputSchema: { type: "object", properties: {} },
        annotations: { readOnlyHint: true },
        execute: () => {
          reads++;
          return stored;
        },
      },
      {
        name: "write_value",
        description: "Writes the value, ignoring its signal",
        inputSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
        execute: ({ value }: { value: string }) => {
          writeStarted();
          return new Promise<string>((resolve) => {
            release = () => {
              stored = value;
              resolve(value);
            };
          });
        },
      },
    ]);
    const cache = createMemoryCache();
    const runtime = (steps: PlanStep[]) =>
      new AgentRuntime({ planner: createFakePlanner({ steps }), registry, memory: false, cache, maxReplans: 0 });
    const readPlan = [tool("s1", "read_value"), reply("s2", "{{s1}}")];
    const writer = runtime([tool("s1", "write_value", { value: "new" }), reply("s2", "{{s1}}")]).run("write");
    await started;
    writer.abort("stop");
    expect((await writer.done).reason).toBe("aborted");
    // Read while the write is still under way on the other side: the old value, cached.
    expect((await runtime(readPlan).run("read").done).reply?.text).toBe("old");
    expect(cache.size).toBe(1);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const after = await runtime(readPlan).run("read").done;
    expect(after.reply?.text).toBe("new");
    expect(after.steps[0]?.cached).toBe(false);
    expect(reads).toBe(2);
  });

  it("accepts an asynchronous cache and can be turned off", async () => {
    const store = new Map<string, unknown>();
    const asyncCache: ResultCache = {
      get: async (key) => (store.has(key) ? { value: store.get(key) } : undefined),
      set: async (key, value) => {
        store.set(key, value);
      },
    };
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({ steps: [tool("s1", "lookup", { q: "a" }), reply("s2", "{{s1.value}}")] });
    await new AgentRuntime({ planner, registry, memory: false, cache: asyncCache }).run("go").done;
    const state = await new AgentRuntime({ planner, registry, memory: false, cache: asyncCache }).run("go").done;
    expect(calls).toHaveLength(1);
    expect(state.steps[0]?.cached).toBe(true);
    const off = new AgentRuntime({ planner, registry, memory: false, cache: false });
    await off.run("go").done;
    await off.run("go").done;
    expect(calls).toHaveLength(3);
  });

  it("the memory cache evicts the least recently used and expires old entries", () => {
    let now = 0;
    const cache = createMemoryCache({ maxEntries: 2, ttlMs: 100, now: () => now });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toEqual({ value: 1 });
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toEqual({ value: 1 });
    now = 150;
    expect(cache.get("c")).toBeUndefined();
  });

  it("the memory cache and store refuse options of the wrong kind: a NaN time to live would keep entries for ever", () => {
    const cases: [() => unknown, string][] = [
      [
        () => createMemoryCache({ ttlMs: Number.NaN }),
        "Option ttlMs of createMemoryCache must be a number of at least 0, got NaN",
      ],
      [
        () => createMemoryCache({ maxBytes: "5" as never }),
        'Option maxBytes of createMemoryCache must be a number of at least 0, got "5"',
      ],
      [() => createMemoryCache({ ttl: 5 } as never), 'Unknown createMemoryCache option "ttl"; did you mean "ttlMs"?'],
      [() => createMemoryCache(null as never), "The createMemoryCache options must be an object, got null"],
      [() => createMemoryCache({ now: 5 as never }), "Option now of createMemoryCache must be a function, got 5"],
      [
        () => createMemoryStore({ maxEntries: -1 }),
        "Option maxEntries of createMemoryStore must be an integer of at least 0, got -1",
      ],
      [() => createMemoryStore({ limt: 3 } as never), 'Unknown createMemoryStore option "limt"; did you mean "limit"?'],
    ];
    for (const [make, message] of cases) expect(make).toThrow(message);
    expect(() => createMemoryCache({ ttlMs: 0, maxEntries: 1, maxBytes: 10, now: () => 0 })).not.toThrow();
  });

  it("canonical JSON sorts keys at every depth", () => {
    expect(canonicalJson({ b: [1, { d: 1, c: undefined, a: "x" }], a: null })).toBe(
      '{"a":null,"b":[1,{"a":"x","d":1}]}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it("computes exponential backoff with a cap and jitter", () => {
    expect(
      [1, 2, 3, 4, 5].map((retry) =>
        computeBackoff(retry, { initialMs: 100, factor: 2, maxMs: 1000, jitter: 0 }, () => 0.9),
      ),
    ).toEqual([100, 200, 400, 800, 1000]);
    expect(computeBackoff(2, { initialMs: 100, jitter: 1 }, () => 0.25)).toBe(150);
  });
});

describe("budgets", () => {
  it("a tool call budget skips what it cannot pay for", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "a" }),
        tool("s2", "lookup", { q: "b" }),
        tool("s3", "lookup", { q: "c" }),
        reply("s4", "{{s1.value}}"),
      ],
    });
    const run = new AgentRuntime({ planner, registry, memory: false, budget: { toolCalls: 2 } }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(events.find((event) => event.type === "step-skipped")).toMatchObject({ stepId: "s3", code: "budget" });
    expect(run.state.reason).toBe("budget");
    expect(run.state.reply?.text).toBe("a!");
  });

  it("a model call budget covers the planner, llm steps and integration", async () => {
    const model = createEchoModel(() => "text");
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [llm("s1", "a"), llm("s2", "b")], model, modelCalls: 1 });
    const run = new AgentRuntime({
      planner,
      registry,
      memory: false,
      budget: { modelCalls: 2 },
      maxConcurrency: 1,
    }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    // The planner's call is counted when its stream ends; llm steps already running are not stopped.
    expect(model.requests).toHaveLength(1);
    expect(run.state.steps.map((step) => [step.status, step.skip?.code])).toEqual([
      ["succeeded", undefined],
      ["skipped", "budget"],
    ]);
    expect(run.state.reason).toBe("budget");
    expect(run.state.reply?.source).toBe("template");
  });

  it("a model call budget counts the planner's call while its plan streams: an llm step cannot slip past it", async () => {
    const model = createEchoModel((request) =>
      request.purpose === "plan" ? '[{"id":"s1","type":"llm","prompt":"a"},{"id":"s2","reply":"{{s1}}"}]' : "text",
    );
    const { registry } = createTestRegistry();
    const planner = new LLMPlanner({ model });
    const run = new AgentRuntime({ planner, registry, memory: false, budget: { modelCalls: 1 } }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(model.requests.map((request) => request.purpose)).toEqual(["plan"]);
    expect(run.state.steps[0]?.skip?.code).toBe("budget");
    expect(run.state.reason).toBe("budget");
    expect(run.state.usage.modelCalls).toBe(1);
  });

  it("a step budget limits how many steps start", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "a" }), tool("s2", "lookup", { q: "b" }), reply("s3", "ok")],
    });
    const run = new AgentRuntime({ planner, registry, memory: false, budget: { steps: 1 } }).run("go");
    await run.done;
    expect(calls).toHaveLength(1);
    expect(run.state.steps.map((step) => step.status)).toEqual(["succeeded", "skipped", "succeeded"]);
  });
});

describe("memory", () => {
  it("writes reflections, then results, after the run (the runtime loop order) and reads them into the next plan", async () => {
    const memory = createMemoryStore();
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "fail"), tool("s2", "lookup", { q: "paris" }), reply("s3", "{{s2.value}}")],
    });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory,
      retries: 0,
      maxReplans: 0,
      idGenerator: () => "r1",
      reflector: { reflect: () => ({ action: "new_plan", reason: "the service is down" }) },
    });
    await runtime.step("weather in paris");
    const entries = memory.entries();
    expect(entries.map((entry) => entry.kind)).toEqual(["reflection", "result"]);
    expect(entries[0]).toMatchObject({
      runId: "r1",
      query: "weather in paris",
      content: { stepId: "s1", action: "new_plan", reason: "the service is down" },
    });
    expect(entries[1]?.content).toEqual({
      reason: "failed",
      reply: "paris!",
      steps: [
        { id: "s1", tool: "fail", status: "failed", error: "the service is down" },
        { id: "s2", tool: "lookup", status: "succeeded", result: { value: "paris!" } },
        { id: "s3", status: "succeeded", result: "paris!" },
      ],
    });
    await runtime.step("paris again");
    expect(planner.log.requests[1]?.context).toContain("Memory of earlier runs:");
    expect(planner.log.requests[1]?.context).toContain("[result] weather in paris");
  });

  it("is none unless given: one runtime's runs for different users share nothing", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "alice's account" }), reply("s2", "{{s1.value}}")],
    });
    const runtime = new AgentRuntime({ planner, registry });
    await runtime.step("alice's balance");
    await runtime.step("bob's balance");
    expect(planner.log.requests).toHaveLength(2);
    expect(planner.log.requests[1]?.context ?? "").not.toContain("alice");
    expect(planner.log.requests[1]?.context ?? "").not.toContain("Memory of earlier runs");
  });

  it("a custom store is awaited and its failures do not fail the run", async () => {
    const written: MemoryEntry[] = [];
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [reply("s1", "hi")] });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: {
        read: async () => {
          throw new Error("store down");
        },
        write: async (entry) => {
          written.push(entry);
        },
      },
    });
    const state = await runtime.run("hello").done;
    expect(state.reason).toBe("completed");
    expect(written.map((entry) => entry.kind)).toEqual(["result"]);
  });

  it("the memory store ranks by shared terms and drops unrelated entries", async () => {
    const memory = createMemoryStore({ limit: 2 });
    const entry = (query: string): MemoryEntry => ({ kind: "result", runId: query, query, content: null, at: 0 });
    await memory.write(entry("weather in Paris"));
    await memory.write(entry("stock prices"));
    await memory.write(entry("Paris weather tomorrow"));
    await memory.write(entry("北京天气"));
    expect((await memory.read("Paris weather")).map((item) => item.query)).toEqual([
      "Paris weather tomorrow",
      "weather in Paris",
    ]);
    expect((await memory.read("天气怎么样")).map((item) => item.query)).toEqual(["北京天气"]);
    expect(await memory.read("cooking")).toEqual([]);
  });

  it("matches numbers too: a request that is only an order number finds the run about it", async () => {
    const memory = createMemoryStore();
    const entry = (query: string): MemoryEntry => ({ kind: "result", runId: query, query, content: null, at: 0 });
    await memory.write(entry("Where is order 48213?"));
    await memory.write(entry("Where is order 51007?"));
    await memory.write(entry("订单51007的状态"));
    expect((await memory.read("48213")).map((item) => item.query)).toEqual(["Where is order 48213?"]);
    expect((await memory.read("51007")).map((item) => item.query)).toEqual([
      "订单51007的状态",
      "Where is order 51007?",
    ]);
    expect(await memory.read("99999")).toEqual([]);
  });
});
