/**
 * The runtime's safety and correctness semantics, one named test (or more) per rule.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import { createScriptedModel } from "../../src/model/create-scripted-model.ts";
import type { PlanModel } from "../../src/model/plan-model.ts";
import { streamModelText } from "../../src/model/stream-model-text.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import type { Planner } from "../../src/planner/planner.ts";
import type { PlannerEvent, ReplanRequest } from "../../src/planner/planner-event.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { createMemoryCache } from "../../src/runtime/create-memory-cache.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { type ToolDefinition, ToolRegistry } from "../../src/tools/tool-registry.ts";
import { validatePlan } from "../../src/validate/validate-plan.ts";
import { collect, createFakePlanner, delay, invariantProblems, llm, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const quiet = {
  memory: false,
  reflector: noOpReflector,
  backoff: { initialMs: 1, jitter: 0 },
  sleep: async () => undefined,
} as const;

/** The terminal event of a step. */
function terminalOf(events: readonly RuntimeEvent[], stepId: string): RuntimeEvent | undefined {
  return events.find(
    (event) =>
      "stepId" in event &&
      event.stepId === stepId &&
      (event.type === "step-end" || event.type === "step-skipped" || (event.type === "step-error" && event.final)),
  );
}

/** A planner whose first plan is `steps` and whose re-plan streams `patch` ending with `clean`. */
function patchingPlanner(
  steps: PlanStep[],
  patch: PlanStep[],
  clean: boolean,
): Planner & { streamReplan(request: ReplanRequest): AsyncIterable<PlannerEvent> } {
  const base = createFakePlanner({ steps });
  return {
    stream: (request) => base.stream(request),
    replan: async () => patch,
    async *streamReplan() {
      for (const [index, step] of patch.entries()) yield { type: "step", step, index };
      yield {
        type: "done",
        steps: patch,
        clean,
        finishReason: clean ? "stop" : "length",
        fallback: false,
        usage: { modelCalls: 1 },
      };
    },
  };
}

/** An in-memory file system as tools: read (read-only), write (not annotated: MCP defaults). */
function createFiles(initial: Record<string, string>): {
  registry: ToolRegistry;
  files: Map<string, string>;
  log: string[];
} {
  const files = new Map(Object.entries(initial));
  const log: string[] = [];
  const definitions: ToolDefinition[] = [
    {
      name: "read_file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      annotations: { readOnlyHint: true },
      execute: (args) => {
        log.push(`read ${String(args["path"])}`);
        return { text: files.get(String(args["path"])) ?? "" };
      },
    },
    {
      name: "write_file",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" }, text: { type: "string" } },
        required: ["path", "text"],
      },
      execute: async (args) => {
        await delay(2);
        log.push(`write ${String(args["path"])}`);
        files.set(String(args["path"]), String(args["text"]));
        return { ok: true };
      },
    },
  ];
  return { registry: new ToolRegistry().register(definitions), files, log };
}

describe("1. clean before side effects, for every source of steps", () => {
  it("a truncated re-plan patch runs none of its side-effecting steps, and still runs its read-only ones", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = patchingPlanner(
      [tool("s1", "fail"), reply("s2", "{{s1}}")],
      [tool("p1", "send", { to: "bob" }), tool("p2", "lookup", { q: "x" }), reply("p3", "{{p2.value}}")],
      false,
    );
    const run = new AgentRuntime({ planner, registry, ...quiet, retries: 0 }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(calls.map((call) => call.name)).toEqual(["fail", "lookup"]);
    expect(terminalOf(events, "p1")).toMatchObject({ type: "step-skipped", code: "unsafe-plan" });
    expect(terminalOf(events, "p2")).toMatchObject({ type: "step-end" });
  });

  it("a clean re-plan patch runs its side-effecting steps", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = patchingPlanner(
      [tool("s1", "fail"), reply("s2", "{{s1}}")],
      [tool("p1", "send", { to: "bob" }), reply("p2", "{{p1.sent}}")],
      true,
    );
    const state = await new AgentRuntime({ planner, registry, ...quiet, retries: 0 }).run("go").done;
    expect(calls.map((call) => call.name)).toEqual(["fail", "send"]);
    expect(state.reply?.text).toBe("bob");
  });

  it("the reply of a re-plan patch that lost a step to its planner does not report it done", async () => {
    const { registry, calls } = createTestRegistry();
    const base = patchingPlanner([tool("s1", "fail"), reply("s2", "{{s1}}")], [], false);
    const planner = {
      ...base,
      async *streamReplan(): AsyncIterable<PlannerEvent> {
        const issue = { code: "invalid-argument", index: 0, stepId: "p1", path: "/steps/0", message: "bad" } as const;
        yield { type: "issue", issue, action: "dropped" };
        const steps = [tool("p2", "lookup", { q: "x" }), reply("p3", "Sent to bob.")];
        for (const [index, step] of steps.entries()) yield { type: "step", step, index };
        yield { type: "done", steps, clean: false, finishReason: "stop", fallback: false, usage: { modelCalls: 1 } };
      },
    };
    const run = new AgentRuntime({ planner, registry, ...quiet, retries: 0 }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(calls.map((call) => call.name)).toEqual(["fail", "lookup"]);
    expect(terminalOf(events, "p3")).toMatchObject({
      type: "step-skipped",
      code: "unsafe-plan",
      reason: "It reports on a plan that lost 1 step: the re-plan 1 patch did not finish cleanly",
    });
  });

  it("a truncated first plan runs none of its side-effecting steps in any eager mode but all", async () => {
    for (const eager of ["safe", "none"] as const) {
      const { registry, calls } = createTestRegistry();
      const planner = createFakePlanner({
        steps: [
          tool("s1", "send", { to: "a" }),
          tool("s2", "put", { key: "k" }),
          tool("s3", "lookup", { q: "q" }),
          reply("s4", "x"),
        ],
        clean: false,
      });
      const events = await collect(new AgentRuntime({ planner, registry, ...quiet, eager }).run("go"));
      expect(invariantProblems(events)).toEqual([]);
      expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    }
  });
});

describe("2. MCP annotation defaults", () => {
  const annotated = (
    name: string,
    annotations: Record<string, unknown> | undefined,
    log: string[],
    failures = 0,
  ): ToolDefinition => {
    let failed = 0;
    const definition: ToolDefinition = {
      name,
      inputSchema: { type: "object" },
      execute: () => {
        log.push(name);
        if (failed < failures) {
          failed++;
          throw new Error(`${name} failed`);
        }
        return { name };
      },
    };
    if (annotations !== undefined) definition.annotations = annotations;
    return definition;
  };

  it("only read-only tools start while the plan streams: idempotent, non-destructive or unannotated tools wait", async () => {
    const log: string[] = [];
    const registry = new ToolRegistry().register([
      annotated("plain", undefined, log),
      annotated("idempotent", { idempotentHint: true }, log),
      annotated("gentle", { destructiveHint: false }, log),
      annotated("closed", { openWorldHint: false, idempotentHint: true, destructiveHint: false }, log),
      annotated("reader", { readOnlyHint: true }, log),
    ]);
    let startedBeforeEnd: string[] = [];
    const planner = createFakePlanner({
      steps: [
        tool("s1", "plain"),
        tool("s2", "idempotent"),
        tool("s3", "gentle"),
        tool("s4", "closed"),
        tool("s5", "reader"),
        reply("s6", "x"),
      ],
      tailDelayMs: 20,
      afterStep: (step) => {
        if (step.id === "s5") startedBeforeEnd = [...log];
      },
    });
    const events = await collect(new AgentRuntime({ planner, registry, ...quiet }).run("go"));
    expect(invariantProblems(events)).toEqual([]);
    expect(startedBeforeEnd).toEqual(["reader"]);
    expect(log).toHaveLength(5);
    const safe = events
      .filter((event) => event.type === "step-planned")
      .map((event) => event.type === "step-planned" && event.safe);
    expect(safe).toEqual([false, false, false, false, true, true]);
  });

  it("idempotentHint permits retries; an unannotated tool is never retried", async () => {
    const log: string[] = [];
    const registry = new ToolRegistry().register([
      annotated("plain", undefined, log, 5),
      annotated("idempotent", { idempotentHint: true }, log, 1),
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "plain"), tool("s2", "idempotent"), reply("s3", "x")] });
    await new AgentRuntime({ planner, registry, ...quiet, retries: 3, maxReplans: 0 }).run("go").done;
    expect(log.filter((name) => name === "plain")).toHaveLength(1);
    expect(log.filter((name) => name === "idempotent")).toHaveLength(2);
  });

  it("idempotentHint never makes a result cacheable: an idempotent, destructive write is never skipped", async () => {
    const log: string[] = [];
    const registry = new ToolRegistry().register([
      annotated("upsert", { idempotentHint: true, destructiveHint: true }, log),
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "upsert"), tool("s2", "upsert", {}, { dependsOn: ["s1"] }), reply("s3", "x")],
    });
    const state = await new AgentRuntime({ planner, registry, ...quiet }).run("go").done;
    expect(log).toEqual(["upsert", "upsert"]);
    expect(state.usage.cacheHits).toBe(0);
  });

  it("the application can override a tool's annotations with the policy option; a step cannot", async () => {
    const log: string[] = [];
    const registry = new ToolRegistry().register([annotated("plain", undefined, log)]);
    let startedBeforeEnd: string[] = [];
    const planner = createFakePlanner({
      // A model-written field claiming the tool is read-only changes nothing.
      steps: [tool("s1", "plain", {}, { readOnlyHint: true } as Partial<PlanStep>), reply("s2", "x")],
      tailDelayMs: 10,
      afterStep: (step) => {
        if (step.id === "s2") startedBeforeEnd = [...log];
      },
    });
    await new AgentRuntime({ planner, registry, ...quiet }).run("go").done;
    expect(startedBeforeEnd).toEqual([]);
    log.length = 0;
    await new AgentRuntime({ planner, registry, ...quiet, policy: { plain: { readOnly: true } } }).run("go").done;
    expect(startedBeforeEnd).toEqual(["plain"]);
  });
});

describe("3. the plan cannot escalate policy", () => {
  it('"retries": 25 on a side-effecting tool runs it once; on an idempotent one it is capped at the runtime\'s retries', async () => {
    let posts = 0;
    let puts = 0;
    const registry = new ToolRegistry().register([
      {
        name: "post",
        inputSchema: { type: "object" },
        execute: () => {
          posts++;
          throw new Error("gateway timeout");
        },
      },
      {
        name: "put",
        inputSchema: { type: "object" },
        annotations: { idempotentHint: true },
        execute: () => {
          puts++;
          throw new Error("busy");
        },
      },
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "post", {}, { retries: 25 }), tool("s2", "put", {}, { retries: 25 }), reply("s3", "x")],
    });
    await new AgentRuntime({ planner, registry, ...quiet, retries: 2, maxReplans: 0 }).run("go").done;
    expect(posts).toBe(1);
    expect(puts).toBe(3);
  });

  it("a plan may lower retries", async () => {
    let puts = 0;
    const registry = new ToolRegistry().register([
      {
        name: "put",
        inputSchema: { type: "object" },
        annotations: { idempotentHint: true },
        execute: () => {
          puts++;
          throw new Error("busy");
        },
      },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "put", {}, { retries: 0 }), reply("s2", "x")] });
    await new AgentRuntime({ planner, registry, ...quiet, retries: 4, maxReplans: 0 }).run("go").done;
    expect(puts).toBe(1);
  });

  it('"timeoutMs": 1e12 does not overflow the timer, and cannot raise the runtime\'s limit', async () => {
    const registry = new ToolRegistry().register([
      {
        name: "slow",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: async () => {
          await delay(30);
          return { done: true };
        },
      },
    ]);
    const long = createFakePlanner({
      steps: [tool("s1", "slow", {}, { timeoutMs: 1e12 }), reply("s2", "{{s1.done}}")],
    });
    const state = await new AgentRuntime({ planner: long, registry, ...quiet, retries: 0 }).run("go").done;
    expect(state.steps[0]?.status).toBe("succeeded");
    const capped = await new AgentRuntime({
      planner: long,
      registry,
      ...quiet,
      retries: 0,
      maxReplans: 0,
      timeoutMs: 5,
    }).run("go").done;
    expect(capped.steps[0]?.error?.code).toBe("timeout");
  });

  it("a plan may lower the timeout", async () => {
    const registry = new ToolRegistry().register([
      {
        name: "slow",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: async () => {
          await delay(60);
          return {};
        },
      },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "slow", {}, { timeoutMs: 5 }), reply("s2", "x")] });
    const state = await new AgentRuntime({
      planner,
      registry,
      ...quiet,
      retries: 0,
      maxReplans: 0,
      timeoutMs: 10_000,
    }).run("go").done;
    expect(state.steps[0]?.error).toMatchObject({ code: "timeout", message: 'Step "s1" timed out after 5 ms' });
  });

  it("the application's per-tool policy bounds retries and timeouts", async () => {
    let calls = 0;
    const registry = new ToolRegistry().register([
      {
        name: "slow",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: async () => {
          calls++;
          await delay(60);
          return {};
        },
      },
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "slow", {}, { timeoutMs: 50_000, retries: 9 }), reply("s2", "x")],
    });
    const state = await new AgentRuntime({
      planner,
      registry,
      ...quiet,
      maxReplans: 0,
      policy: { slow: { timeoutMs: 5, retries: 1 } },
    }).run("go").done;
    expect(calls).toBe(2);
    expect(state.steps[0]?.error?.code).toBe("timeout");
  });
});

describe("4. values flow by copy", () => {
  it("a tool that mutates its arguments changes neither the earlier result nor the events", async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry().register([
      {
        name: "make",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ list: [1, 2], meta: { n: 1 } }),
      },
      {
        name: "mangle",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: (args) => {
          const input = args["input"] as { list: number[]; meta: { n: number } };
          input.list.push(99);
          input.meta.n = 42;
          return { ok: true };
        },
      },
      {
        name: "look",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: (args) => {
          seen.push(args["input"]);
          return {};
        },
      },
    ]);
    const planner = createFakePlanner({
      steps: [
        tool("s1", "make"),
        tool("s2", "mangle", { input: "{{s1}}" }),
        tool("s3", "look", { input: "{{s1}}" }, { dependsOn: ["s2"] }),
        reply("s4", "{{s1.meta.n}}"),
      ],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(seen).toEqual([{ list: [1, 2], meta: { n: 1 } }]);
    expect(terminalOf(events, "s1")).toMatchObject({ result: { list: [1, 2], meta: { n: 1 } } });
    const start = events.find((event) => event.type === "step-start" && event.stepId === "s2");
    expect(start).toMatchObject({ input: { input: { list: [1, 2], meta: { n: 1 } } } });
    expect(run.state.reply?.text).toBe("1");
  });

  it("a result is snapshotted when its step ends: later mutation by the tool, or getters, cannot change history", async () => {
    const kept: { value: number }[] = [];
    let reads = 0;
    const registry = new ToolRegistry().register([
      {
        name: "leaky",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => {
          const result = { value: 1 };
          kept.push(result);
          return result;
        },
      },
      {
        name: "getter",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({
          get count() {
            reads++;
            return reads;
          },
        }),
      },
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "leaky"), tool("s2", "getter"), reply("s3", "{{s1.value}} {{s2.count}} {{s2.count}}")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("go");
    const events = await collect(run);
    for (const result of kept) result.value = 666;
    expect(run.state.reply?.text).toBe("1 1 1");
    expect(terminalOf(events, "s1")).toMatchObject({ result: { value: 1 } });
    expect(run.state.steps[0]?.result).toEqual({ value: 1 });
    const ended = terminalOf(events, "s1");
    expect(() => {
      (ended as { result: { value: number } }).result.value = 5;
    }).toThrow();
  });

  it("a result that cannot be copied fails its step with invalid-result: a function, a BigInt, a cycle", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    const registry = new ToolRegistry().register([
      {
        name: "fn",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ run: () => 1 }),
      },
      {
        name: "big",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ n: 10n }),
      },
      { name: "cycle", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => cyclic },
      {
        name: "fine",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ ok: true }),
      },
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "fn"), tool("s2", "big"), tool("s3", "cycle"), tool("s4", "fine"), reply("s5", "{{s4.ok}}")],
    });
    const events = await collect(new AgentRuntime({ planner, registry, ...quiet, maxReplans: 0 }).run("go"));
    expect(invariantProblems(events)).toEqual([]);
    expect(terminalOf(events, "s1")).toMatchObject({
      type: "step-error",
      error: { code: "invalid-result", message: expect.stringContaining("a function at /run") },
    });
    expect(terminalOf(events, "s2")).toMatchObject({
      type: "step-error",
      error: { code: "invalid-result", message: expect.stringContaining("a BigInt at /n") },
    });
    expect(terminalOf(events, "s3")).toMatchObject({
      type: "step-error",
      error: { code: "invalid-result", message: expect.stringContaining("a cycle at /self") },
    });
    expect(terminalOf(events, "s4")).toMatchObject({ type: "step-end", result: { ok: true } });
  });
});

describe("5. caching that cannot lie", () => {
  it("reuses a read within one run only while no side-effecting step has ended since", async () => {
    const { registry, log } = createFiles({ "a.txt": "old" });
    const planner = createFakePlanner({
      steps: [
        tool("s1", "read_file", { path: "a.txt" }),
        tool("s2", "read_file", { path: "a.txt" }, { dependsOn: ["s1"] }),
        tool("s3", "write_file", { path: "a.txt", text: "new" }, { dependsOn: ["s2"] }),
        tool("s4", "read_file", { path: "a.txt" }, { dependsOn: ["s3"] }),
        reply("s5", "{{s2.text}} {{s4.text}}"),
      ],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(log).toEqual(["read a.txt", "write a.txt", "read a.txt"]);
    expect(run.state.reply?.text).toBe("old new");
    expect(terminalOf(events, "s2")).toMatchObject({ cached: true });
    expect(terminalOf(events, "s4")).toMatchObject({ cached: false });
  });

  it("does not reuse results across runs by default: a second run reads the clock again", async () => {
    let now = 0;
    const registry = new ToolRegistry().register([
      {
        name: "clock",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ now: ++now }),
      },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "clock"), reply("s2", "{{s1.now}}")] });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    expect((await runtime.run("go").done).reply?.text).toBe("1");
    expect((await runtime.run("go").done).reply?.text).toBe("2");
  });

  it("an opt-in shared cache expires with its TTL and keeps within its byte budget", async () => {
    let now = 0;
    let time = 0;
    const registry = new ToolRegistry().register([
      {
        name: "clock",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        execute: () => ({ now: ++now, pad: "x".repeat(50) }),
      },
    ]);
    const planner = createFakePlanner({ steps: [tool("s1", "clock"), reply("s2", "{{s1.now}}")] });
    const cache = createMemoryCache({ ttlMs: 100, now: () => time, maxBytes: 10_000 });
    const runtime = new AgentRuntime({ planner, registry, ...quiet, cache });
    expect((await runtime.run("go").done).reply?.text).toBe("1");
    time = 50;
    expect((await runtime.run("go").done).reply?.text).toBe("1");
    time = 500;
    expect((await runtime.run("go").done).reply?.text).toBe("2");
    const small = createMemoryCache({ maxBytes: 40 });
    small.set("k", { pad: "x".repeat(100) });
    expect(small.size).toBe(0);
    small.set("a", "x".repeat(15));
    small.set("b", "y".repeat(15));
    expect(small.size).toBe(2);
    small.set("c", "z".repeat(15));
    expect(small.bytes).toBeLessThanOrEqual(40);
    expect(small.get("a")).toBeUndefined();
    expect(small.get("c")).toEqual({ value: "z".repeat(15) });
  });
});

describe("6. no silent dropping of planned steps", () => {
  it("the streaming planner keeps a repeated read placed after a write, as validatePlan does, and the run reads fresh text", async () => {
    const plan = [
      { id: "s1", type: "tool", name: "read_file", arguments: { path: "a.txt" } },
      { id: "s2", type: "tool", name: "write_file", arguments: { path: "a.txt", text: "{{s1.text}} and more" } },
      { id: "s3", type: "tool", name: "read_file", arguments: { path: "a.txt" }, dependsOn: ["s2"] },
      { id: "s4", type: "reply", text: "{{s3.text}}" },
    ];
    const { registry, log } = createFiles({ "a.txt": "start" });
    const verdict = validatePlan(plan, registry);
    expect(verdict.issues).toEqual([]);
    expect(verdict.steps).toHaveLength(4);
    const planner = new LLMPlanner({ model: createScriptedModel({ responses: [JSON.stringify(plan)] }) });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("edit a.txt");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.filter((event) => event.type === "step-issue")).toEqual([]);
    expect(events.find((event) => event.type === "plan-end")).toMatchObject({ clean: true, steps: 4 });
    expect(log).toEqual(["read a.txt", "write a.txt", "read a.txt"]);
    expect(run.state.reply?.text).toBe("start and more");
    expect(run.state.reason).toBe("completed");
  });
});

describe("7. any thrown value is a step error", () => {
  const strange: [string, () => unknown][] = [
    ["a null-prototype object", () => Object.create(null)],
    [
      "an object whose toString throws",
      () => ({
        toString: () => {
          throw new Error("no");
        },
        toJSON: () => {
          throw new Error("no");
        },
      }),
    ],
    [
      "a proxy whose traps throw",
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("trap");
            },
            ownKeys: () => {
              throw new Error("trap");
            },
            getPrototypeOf: () => {
              throw new Error("trap");
            },
          },
        ),
    ],
    ["undefined", () => undefined],
    ["null", () => null],
    ["a number", () => 7],
    ["an Error without a message", () => new TypeError()],
  ];
  for (const [what, make] of strange) {
    it(`${what}: a readable step error; independent steps go on; plan-end and run-end are emitted`, async () => {
      const registry = new ToolRegistry().register([
        {
          name: "weird",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: () => {
            throw make();
          },
        },
        {
          name: "fine",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: () => ({ ok: 1 }),
        },
      ]);
      const planner = createFakePlanner({ steps: [tool("s1", "weird"), tool("s2", "fine"), reply("s3", "{{s2.ok}}")] });
      const run = new AgentRuntime({ planner, registry, ...quiet, maxReplans: 0 }).run("go");
      const events = await collect(run);
      expect(invariantProblems(events)).toEqual([]);
      const error = terminalOf(events, "s1");
      expect(error).toMatchObject({ type: "step-error", error: { code: "tool-error" } });
      const message = (error as { error: { message: string } }).error.message;
      expect(typeof message).toBe("string");
      expect(message.length).toBeGreaterThan(0);
      expect(message).not.toContain("Internal error");
      expect(terminalOf(events, "s2")).toMatchObject({ type: "step-end" });
      expect(run.state.reply?.text).toBe("1");
      expect(events.map((event) => event.type)).toContain("plan-end");
      expect(events.at(-1)?.type).toBe("run-end");
    });
  }
});

describe("8. every wait is bounded", () => {
  /** A model that never answers (until its signal fires, which it ignores). */
  const stalled: PlanModel = {
    stream: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }),
    }),
  };
  const timeouts = { modelTimeouts: { idleMs: 20, totalMs: 200 } };

  it("a stalled model in an llm step fails the step with a timeout", async () => {
    const planner = createFakePlanner({ steps: [llm("s1", "think"), reply("s2", "{{s1}}")] });
    const { registry } = createTestRegistry();
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      model: stalled,
      ...timeouts,
      timeoutMs: 60_000,
      retries: 0,
      maxReplans: 0,
    }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(terminalOf(events, "s1")).toMatchObject({
      type: "step-error",
      error: { code: "timeout", message: expect.stringContaining("sent nothing for 20 ms") },
    });
    expect(run.state.reason).toBe("failed");
  });

  it("stalled integration and reflection fall back instead of hanging", async () => {
    const planner = createFakePlanner({ steps: [tool("s1", "fail")] });
    const { registry } = createTestRegistry();
    const run = new AgentRuntime({
      planner,
      registry,
      memory: false,
      model: stalled,
      ...timeouts,
      retries: 0,
      maxReplans: 0,
    }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reply?.source).toBe("template");
  });

  it("a stalled planner ends the run with a clear error", async () => {
    const planner: Planner = {
      stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }) }),
      replan: async () => [],
    };
    const { registry } = createTestRegistry();
    const run = new AgentRuntime({ planner, registry, ...quiet, ...timeouts }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "plan-end")).toMatchObject({
      clean: false,
      error: { code: "timeout" },
    });
    expect(run.state.reason).toBe("failed");
    expect(run.state.error?.message).toContain("Planning timed out");
  });

  it("the planner's model call has idle and total timeouts", async () => {
    const usage = { modelCalls: 0 };
    await expect(async () => {
      for await (const _ of streamModelText(
        stalled,
        { prompt: "x" },
        { what: "Planning", usage, timeouts: { idleMs: 10, totalMs: 100 } },
      ))
        void _;
    }).rejects.toMatchObject({ code: "timeout", message: "Planning timed out: the model sent nothing for 10 ms" });
    const trickle: PlanModel = {
      async *stream() {
        for (;;) {
          await delay(5);
          yield { type: "text", text: "." };
        }
      },
    };
    await expect(async () => {
      for await (const _ of streamModelText(
        trickle,
        { prompt: "x" },
        { what: "Re-planning", usage, timeouts: { idleMs: 50, totalMs: 40 } },
      ))
        void _;
    }).rejects.toMatchObject({
      code: "timeout",
      message: "Re-planning timed out: the model call took longer than 40 ms",
    });
  });

  it("a stalled memory store delays the run by at most memoryTimeoutMs", async () => {
    const planner = createFakePlanner({ steps: [reply("s1", "hi")] });
    const { registry } = createTestRegistry();
    const memory = {
      read: () => new Promise<never>(() => undefined),
      write: () => new Promise<never>(() => undefined),
    };
    const state = await new AgentRuntime({
      planner,
      registry,
      reflector: noOpReflector,
      memory,
      memoryTimeoutMs: 10,
    }).run("go").done;
    expect(state.reason).toBe("completed");
    expect(state.reply?.text).toBe("hi");
  });
});
