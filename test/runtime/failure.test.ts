import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { Reflection, ReflectionRequest } from "../../src/planner/reflector.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { createModelReflector } from "../../src/runtime/create-model-reflector.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { collect, createEchoModel, createFakePlanner, delay, invariantProblems, reply, tool } from "./fake-planner.ts";
import { createFlakyTool, createTestRegistry } from "./test-tools.ts";

function types(events: readonly RuntimeEvent[], stepId: string): string[] {
  return events
    .filter((event) => "stepId" in event && event.stepId === stepId && event.type !== "reply")
    .map((event) => (event.type === "step-error" ? `step-error${event.final ? "!" : ""}` : event.type));
}

describe("retries, timeouts and reflection", () => {
  it("retries with exponential backoff and jitter from the injected random and sleep", async () => {
    const { registry } = createTestRegistry({ extra: [createFlakyTool(3)] });
    const sleeps: number[] = [];
    const planner = createFakePlanner({ steps: [tool("s1", "flaky"), reply("s2", "{{s1.ok}}")] });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 3,
      backoff: { initialMs: 100, factor: 3, maxMs: 500, jitter: 0.5 },
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    // base 100, 300, 500 (capped) × (1 − 0.5 × 0.5)
    expect(sleeps).toEqual([75, 225, 375]);
    expect(
      events.filter((event) => event.type === "step-retry").map((event) => [event.attempt, event.delayMs, event.cause]),
    ).toEqual([
      [2, 75, "policy"],
      [3, 225, "policy"],
      [4, 375, "policy"],
    ]);
    expect(types(events, "s1")).toEqual([
      "step-start",
      "step-error",
      "step-retry",
      "step-start",
      "step-error",
      "step-retry",
      "step-start",
      "step-error",
      "step-retry",
      "step-start",
      "step-end",
    ]);
    expect(run.state.steps[0]).toMatchObject({ status: "succeeded", attempts: 4 });
    expect(run.state.reason).toBe("completed");
  });

  it("honours a step's own retries and gives up with a final error", async () => {
    const { registry } = createTestRegistry({ extra: [createFlakyTool(5)] });
    const planner = createFakePlanner({ steps: [tool("s1", "flaky", {}, { retries: 1 }), reply("s2", "{{s1.ok}}")] });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 4,
      maxReplans: 0,
      sleep: async () => undefined,
    });
    const events = await collect(runtime.run("go"));
    expect(invariantProblems(events)).toEqual([]);
    expect(types(events, "s1")).toEqual(["step-start", "step-error", "step-retry", "step-start", "step-error!"]);
    expect(events.find((event) => event.type === "step-skipped")).toMatchObject({
      stepId: "s2",
      code: "dependency-failed",
    });
  });

  it("does not retry errors another identical attempt cannot fix", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: 5 }), tool("s2", "nope", {}), reply("s3", "x")],
    });
    const runtime = new AgentRuntime({ planner, registry, memory: false, maxReplans: 0, sleep: async () => undefined });
    const events = await collect(runtime.run("go"));
    expect(invariantProblems(events)).toEqual([]);
    expect(calls).toEqual([]);
    const errors = events.filter((event) => event.type === "step-error");
    expect(errors.map((event) => event.type === "step-error" && [event.stepId, event.error.code, event.final])).toEqual(
      [
        ["s1", "invalid-argument", true],
        ["s2", "unknown-tool", true],
      ],
    );
  });

  it("times an attempt out even when the tool ignores its signal, and aborts the tool's signal", async () => {
    const signals: AbortSignal[] = [];
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "hang",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: (_args, { signal }) => {
            if (signal !== undefined) signals.push(signal);
            return new Promise(() => undefined);
          },
        },
      ],
    });
    const planner = createFakePlanner({ steps: [tool("s1", "hang", {}, { timeoutMs: 15 }), reply("s2", "x")] });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 1,
      maxReplans: 0,
      backoff: { initialMs: 1 },
    });
    const events = await collect(runtime.run("go"));
    expect(invariantProblems(events)).toEqual([]);
    const errors = events.filter((event) => event.type === "step-error");
    expect(errors.map((event) => event.type === "step-error" && [event.error.code, event.final])).toEqual([
      ["timeout", false],
      ["timeout", true],
    ]);
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  it("retries output that fails the tool's outputSchema", async () => {
    let calls = 0;
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "typed",
          inputSchema: { type: "object" },
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          annotations: { readOnlyHint: true },
          execute: () => (++calls === 1 ? { n: "one" } : { n: 1 }),
        },
      ],
    });
    const planner = createFakePlanner({ steps: [tool("s1", "typed"), reply("s2", "{{s1.n}}")] });
    const runtime = new AgentRuntime({ planner, registry, memory: false, sleep: async () => undefined });
    const events = await collect(runtime.run("go"));
    expect(events.find((event) => event.type === "step-error")).toMatchObject({
      error: { code: "invalid-output" },
      final: false,
    });
    expect(events.find((event) => event.type === "reply")).toMatchObject({ text: "1" });
  });

  it("follows a reflector's retry with adjusted arguments", async () => {
    const requests: ReflectionRequest[] = [];
    const { registry, calls } = createTestRegistry({
      extra: [
        {
          name: "strict",
          inputSchema: { type: "object", properties: { mode: { type: "string" } } },
          annotations: { readOnlyHint: true },
          execute: (args) => {
            if (args["mode"] !== "safe") throw new Error(`mode ${String(args["mode"])} is not supported`);
            return { mode: args["mode"] };
          },
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "a" }), tool("s2", "strict", { mode: "fast" }), reply("s3", "{{s2.mode}}")],
    });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 0,
      reflector: {
        reflect: (request): Reflection => {
          requests.push(request);
          return { action: "retry", reason: "use the safe mode", arguments: { mode: "safe" } };
        },
      },
    });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(requests[0]).toMatchObject({
      query: "go",
      input: { mode: "fast" },
      error: { code: "tool-error", message: "mode fast is not supported" },
      attempts: 1,
    });
    expect(requests[0]?.completed.map((item) => item.step.id)).toEqual(["s1"]);
    expect(requests[0]?.tool?.name).toBe("strict");
    expect(types(events, "s2")).toEqual([
      "step-start",
      "reflection",
      "step-error",
      "step-retry",
      "step-start",
      "step-end",
    ]);
    expect(events.find((event) => event.type === "step-retry")).toMatchObject({
      cause: "reflection",
      arguments: { mode: "safe" },
    });
    expect(calls.filter((call) => call.name === "lookup")).toHaveLength(1);
    expect(run.state.reply?.text).toBe("safe");
    expect(run.state.reflections).toEqual([
      { stepId: "s2", action: "retry", reason: "use the safe mode", arguments: { mode: "safe" } },
    ]);
    expect(run.state.steps[1]?.arguments).toEqual({ mode: "safe" });
  });

  it("stops the run when the reflector says abort", async () => {
    const { registry, calls } = createTestRegistry({
      extra: [
        {
          name: "slow",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: () => delay(300),
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [tool("s1", "fail"), tool("s2", "slow"), tool("s3", "send", { to: "x" }), reply("s4", "x")],
    });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 0,
      reflector: { reflect: () => ({ action: "abort", reason: "hopeless" }) },
    });
    const run = runtime.run("go");
    const started = performance.now();
    const events = await collect(run);
    expect(performance.now() - started).toBeLessThan(150);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reason).toBe("failed");
    expect(run.state.error?.message).toContain("hopeless");
    // The plan stream is cancelled too, so s3 and s4 never arrive.
    expect(run.state.steps.map((step) => [step.step.id, step.status, step.error?.code])).toEqual([
      ["s1", "failed", "tool-error"],
      ["s2", "failed", "aborted"],
    ]);
    expect(planner.log.endedAt).toBeUndefined();
    expect(calls.map((call) => call.name)).toEqual(["fail"]);
    expect(run.state.reply?.source).toBe("template");
  });

  it("a verdict whose reason is missing or not text says nothing for it, rather than undefined or [object Object]", async () => {
    const { registry } = createTestRegistry();
    for (const reason of [undefined, 42, { why: "no" }]) {
      const planner = createFakePlanner({ steps: [tool("s1", "fail"), reply("s2", "x")] });
      const reflector = { reflect: () => ({ action: "abort", reason }) as unknown as Reflection };
      const run = new AgentRuntime({ planner, registry, memory: false, retries: 0, reflector }).run("go");
      const events = await collect(run);
      expect(events.find((event) => event.type === "reflection")).toMatchObject({ action: "abort", reason: "" });
      expect(run.state.error?.message).toBe('A reflector stopped the run after step "s1" failed');
    }
  });

  it("the model reflector reads the model's verdict, and the no-op reflector has none", async () => {
    const model = createEchoModel(
      () => 'Looks like a typo.\n```json\n{"action":"retry","arguments":{"q":"fixed"},"reason":"typo"}\n```',
    );
    const reflector = createModelReflector();
    const { registry } = createTestRegistry();
    const step = tool("s1", "lookup", { q: "fixd" });
    const request: ReflectionRequest = {
      query: "go",
      step,
      input: { q: "fixd" },
      error: { code: "tool-error", message: "not found" },
      attempts: 3,
      completed: [],
      model,
      signal: new AbortController().signal,
    };
    const tool0 = registry.get("lookup");
    if (tool0 !== undefined) request.tool = tool0;
    await expect(reflector.reflect(request)).resolves.toEqual({
      action: "retry",
      reason: "typo",
      arguments: { q: "fixed" },
    });
    expect(model.requests[0]?.prompt).toContain("not found");
    expect(model.requests[0]?.prompt).toContain('"q":"fixd"');
    const snakeCaseShaped = createModelReflector({
      model: createEchoModel(() => '{"adjust_action":"new_plan","diagnosis":"wrong tool"}'),
    });
    await expect(snakeCaseShaped.reflect(request)).resolves.toEqual({ action: "new_plan", reason: "wrong tool" });
    const confused = createModelReflector({ model: createEchoModel(() => "no idea") });
    await expect(confused.reflect(request)).resolves.toBeUndefined();
    const broken = createModelReflector({ model: createEchoModel(() => new Error("down")) });
    await expect(broken.reflect(request)).resolves.toBeUndefined();
    expect(noOpReflector.reflect(request)).toBeUndefined();
  });

  it("createModelReflector refuses options it would misread, naming the option and the value", () => {
    expect(() => createModelReflector({ maxResultChar: 100 } as never)).toThrow(
      'Unknown createModelReflector option "maxResultChar"; did you mean "maxResultChars"?',
    );
    expect(() => createModelReflector({ maxResultChars: Number.NaN })).toThrow(
      "createModelReflector option maxResultChars must be an integer >= 0, got NaN",
    );
    expect(() => createModelReflector({ maxResultChars: -1 })).toThrow("must be an integer >= 0, got -1");
    expect(() => createModelReflector({ system: 42 as never })).toThrow(
      "createModelReflector option system must be a string, got 42",
    );
    expect(() => createModelReflector({ model: {} as never })).toThrow(
      "createModelReflector option model must be a PlanModel with a stream() method, got {}",
    );
    expect(() => createModelReflector(null as never)).toThrow("The createModelReflector options must be an object");
  });
});

describe("re-planning", () => {
  it("keeps completed steps, never re-runs them, and renames colliding ids", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "a" }),
        tool("s2", "fail", { x: "{{s1.value}}" }),
        tool("s3", "combine", { parts: ["{{s2}}"] }),
        reply("s4", "{{s3.text}}"),
      ],
      replan: () => [
        tool("s2", "lookup", { q: "{{s1.value}} again" }),
        tool("s5", "combine", { parts: ["{{s1.value}}", "{{s2.value}}"] }),
        reply("s6", "{{s5.text}}"),
      ],
    });
    const runtime = new AgentRuntime({ planner, registry, memory: false, retries: 0, reflector: noOpReflector });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    const request = planner.log.replans[0];
    expect(request?.completed.map((item) => [item.step.id, item.result])).toEqual([["s1", { value: "a!" }]]);
    expect(request?.failed).toEqual([
      { step: tool("s2", "fail", { x: "{{s1.value}}" }), error: "the service is down" },
    ]);
    expect(request?.remaining.map((step) => step.id)).toEqual(["s3", "s4"]);
    expect(events.find((event) => event.type === "replan")).toMatchObject({
      attempt: 1,
      failed: ["s2"],
      replaced: ["s3", "s4"],
      added: ["s2_r1", "s5", "s6"],
      renamed: { s2: "s2_r1" },
    });
    expect(calls.filter((call) => call.name === "lookup").map((call) => call.args["q"])).toEqual(["a", "a! again"]);
    expect(run.state.steps.map((step) => [step.step.id, step.status, step.source])).toEqual([
      ["s1", "succeeded", "plan"],
      ["s2", "failed", "plan"],
      ["s3", "skipped", "plan"],
      ["s4", "skipped", "plan"],
      ["s2_r1", "succeeded", "replan"],
      ["s5", "succeeded", "replan"],
      ["s6", "succeeded", "replan"],
    ]);
    expect(run.state.reply?.text).toBe("a!+a! again!");
    expect(run.state.reason).toBe("completed");
    expect(run.state.replans).toBe(1);
  });

  it("is bounded by maxReplans", async () => {
    const { registry } = createTestRegistry();
    let patches = 0;
    const planner = createFakePlanner({
      steps: [tool("s1", "fail"), reply("s2", "{{s1}}")],
      replan: () => {
        patches++;
        return [tool(`f${patches}`, "fail"), reply(`r${patches}`, `{{f${patches}}}`)];
      },
    });
    const runtime = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 0,
      reflector: noOpReflector,
      maxReplans: 2,
    });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(planner.log.replans).toHaveLength(2);
    expect(run.state.replans).toBe(2);
    expect(run.state.reason).toBe("failed");
    expect(run.state.steps.map((step) => step.step.id)).toEqual(["s1", "s2", "f1", "r1", "f2", "r2"]);
  });

  it("a replan budget ends the run with reason budget", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "fail"), reply("s2", "{{s1}}")],
      replan: () => [reply("r1", "sorry")],
    });
    const run = new AgentRuntime({
      planner,
      registry,
      memory: false,
      retries: 0,
      reflector: noOpReflector,
      budget: { replans: 0 },
    }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(planner.log.replans).toHaveLength(0);
    expect(run.state.reason).toBe("budget");
  });

  it("an empty or failing patch leaves the failure in place", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "fail"), reply("s2", "{{s1}}")],
      replan: async () => {
        await delay(1);
        throw new Error("planner down");
      },
    });
    const run = new AgentRuntime({ planner, registry, memory: false, retries: 0, reflector: noOpReflector }).run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(planner.log.replans).toHaveLength(1);
    expect(run.state.steps.map((step) => [step.status, step.skip?.code])).toEqual([
      ["failed", undefined],
      ["skipped", "dependency-failed"],
    ]);
    expect(run.state.reason).toBe("failed");
  });
});

describe("retry policy for side effects", () => {
  it("does not repeat a side-effecting tool, even when the plan asks for retries, unless the application's policy allows it", async () => {
    let sends = 0;
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "post",
          inputSchema: { type: "object" },
          execute: () => {
            sends++;
            throw new Error("gateway timeout");
          },
        },
      ],
    });
    const once = createFakePlanner({ steps: [tool("s1", "post"), reply("s2", "x")] });
    await new AgentRuntime({
      planner: once,
      registry,
      memory: false,
      retries: 3,
      maxReplans: 0,
      reflector: noOpReflector,
      sleep: async () => undefined,
    }).run("go").done;
    expect(sends).toBe(1);
    const explicit = createFakePlanner({ steps: [tool("s1", "post", {}, { retries: 2 }), reply("s2", "x")] });
    await new AgentRuntime({
      planner: explicit,
      registry,
      memory: false,
      maxReplans: 0,
      reflector: noOpReflector,
      sleep: async () => undefined,
    }).run("go").done;
    expect(sends).toBe(2);
    await new AgentRuntime({
      planner: explicit,
      registry,
      memory: false,
      maxReplans: 0,
      reflector: noOpReflector,
      sleep: async () => undefined,
      policy: { post: { retries: 5 } },
    }).run("go").done;
    // The application allows 5, the plan asks for 2: the plan may only lower the allowance.
    expect(sends).toBe(5);
  });
});
