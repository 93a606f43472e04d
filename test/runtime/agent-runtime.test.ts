import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { createScriptedModel } from "../../src/model/create-scripted-model.ts";
import { createFixedPlanner } from "../../src/planner/create-fixed-planner.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, createEchoModel, createFakePlanner, invariantProblems, llm, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const quiet = { memory: false, backoff: { initialMs: 1, jitter: 0 } } as const;

describe("AgentRuntime: a plan runs to a reply", () => {
  it("runs tool steps with resolved references and resolves the reply last", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "paris" }),
        tool("s2", "lookup", { q: "{{s1.value}} and more" }),
        tool("s3", "combine", { parts: ["{{s1.value}}", "{{s2.value}}", "{{context.user}}"] }),
        reply("s4", "Answer: {{s3.text}}"),
      ],
    });
    const runtime = new AgentRuntime({ planner, registry, ...quiet, idGenerator: () => "run-1" });
    const run = runtime.run("weather?", { context: { user: "ann" } });
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(calls.map((call) => call.args)).toEqual([
      { q: "paris" },
      { q: "paris! and more" },
      { parts: ["paris!", "paris! and more!", "ann"] },
    ]);
    const replyEvent = events.find((event) => event.type === "reply");
    expect(replyEvent).toMatchObject({
      type: "reply",
      text: "Answer: paris!+paris! and more!+ann",
      source: "step",
      stepId: "s4",
    });
    expect(events[events.length - 1]).toMatchObject({ type: "run-end", reason: "completed", runId: "run-1" });
    expect(events.every((event) => event.runId === "run-1" && typeof event.t === "number")).toBe(true);
    expect(run.state.steps.map((step) => step.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
    expect(run.state.reply?.text).toBe("Answer: paris!+paris! and more!+ann");
    expect(run.state.usage).toMatchObject({ toolCalls: 3, modelCalls: 1, inputTokens: 100, outputTokens: 50 });
  });

  it("step() returns the assistant message", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [tool("s1", "lookup", { q: "x" }), reply("s2", "Got {{s1.value}}")] });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    await expect(
      runtime.step([
        { role: "system", content: "be brief" },
        { role: "user", content: "look x up" },
      ]),
    ).resolves.toEqual({ role: "assistant", content: "Got x!" });
    expect(planner.log.requests[0]?.query).toBe("look x up");
    expect(planner.log.requests[0]?.tools).toBe(registry);
  });

  it("passes earlier turns, the run context and the profile to the planner", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [reply("s1", "ok")] });
    const runtime = new AgentRuntime({ planner, registry, ...quiet, profile: { name: "Ada", role: "researcher" } });
    await runtime.step(
      [
        { role: "user", content: "hello" },
        { role: "assistant", content: "hi" },
        { role: "user", content: "what now" },
      ],
      { context: { city: "Rome" } },
    );
    const request = planner.log.requests[0];
    expect(request?.query).toBe("what now");
    expect(request?.profile).toEqual({ name: "Ada", role: "researcher" });
    expect(request?.context).toContain("user: hello\nassistant: hi");
    expect(request?.context).toContain('{"city":"Rome"}');
  });

  it("calls the model for llm steps with the resolved prompt", async () => {
    const { registry } = createTestRegistry();
    const model = createEchoModel((request) => `summary of <${request.prompt}>`);
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "cats" }), llm("s2", "Summarize {{s1}}"), reply("s3", "{{s2}}")],
      model,
    });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const run = runtime.run("cats");
    const state = await run.done;
    expect(model.requests.map((request) => request.prompt)).toEqual(['Summarize {"value":"cats!"}']);
    expect(state.reply?.text).toBe('summary of <Summarize {"value":"cats!"}>');
    expect(state.usage.modelCalls).toBe(2);
    expect(state.usage.outputTokens).toBe(50 + 'summary of <Summarize {"value":"cats!"}>'.length);
  });

  it("asks the model to integrate the results when the plan has no reply", async () => {
    const { registry } = createTestRegistry();
    const model = createEchoModel(() => "Paris is sunny.");
    const planner = createFakePlanner({ steps: [tool("s1", "lookup", { q: "paris" })], model });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const state = await runtime.run("weather in paris").done;
    expect(state.reply).toEqual({ text: "Paris is sunny.", source: "model" });
    expect(model.requests[0]?.prompt).toContain("weather in paris");
    expect(model.requests[0]?.prompt).toContain('s1 (lookup): {"value":"paris!"}');
  });

  it("falls back to a template reply without a model", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [tool("s1", "lookup", { q: "paris" })] });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const state = await runtime.run("weather in paris").done;
    expect(state.reply).toEqual({ text: 'Results:\n- s1 (lookup): {"value":"paris!"}', source: "template" });
    const empty = new AgentRuntime({ planner: createFakePlanner({ steps: [] }), registry, ...quiet });
    await expect(empty.step("nothing")).resolves.toEqual({ role: "assistant", content: "(no valid reply)" });
  });

  it("ends as failed when the planner throws, keeping what ran", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup", { q: "a" }), tool("s2", "send", { to: "bob" })],
      fail: new Error("model went away"),
    });
    const runtime = new AgentRuntime({ planner, registry, ...quiet });
    const run = runtime.run("go");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.plan).toEqual({ done: true, clean: false, finishReason: "error", fallback: false });
    expect(run.state.steps.map((step) => [step.step.id, step.status, step.skip?.code])).toEqual([
      ["s1", "succeeded", undefined],
      ["s2", "skipped", "unsafe-plan"],
    ]);
    expect(run.state.reason).toBe("failed");
    expect(run.state.error).toEqual({ code: "model-error", message: "model went away" });
  });

  it("rejects options out of range", () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [] });
    const attempts: unknown[] = [
      { planner, registry, maxConcurrency: 0 },
      { planner, registry, retries: 1.5 },
      { planner, registry, eager: "sometimes" },
      { planner, registry, budget: { toolCalls: -1 } },
      { planner: {}, registry },
    ];
    for (const options of attempts) {
      let caught: unknown;
      try {
        new AgentRuntime(options as ConstructorParameters<typeof AgentRuntime>[0]);
      } catch (error) {
        caught = error;
      }
      expect(PlankitError.isInstance(caught) && caught.code === "invalid-options").toBe(true);
    }
  });
});

describe("AgentRuntime options", () => {
  it("names the option, what it must be and the value found", () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [] });
    const cases: [Record<string, unknown>, string][] = [
      [{ planner, registry, maxConcurrency: 0 }, "Option maxConcurrency must be an integer of at least 1, got 0"],
      [{ planner, registry, retries: 1.5 }, "Option retries must be an integer of at least 0, got 1.5"],
      [{ planner, registry, timeoutMs: Number.NaN }, "Option timeoutMs must be a number of at least 1, got NaN"],
      [{ planner, registry, eager: "sometimes" }, 'Option eager must be "safe", "all" or "none", got "sometimes"'],
      [
        { planner, registry, budget: { toolCalls: -1 } },
        "Option budget.toolCalls must be an integer of at least 0, got -1",
      ],
      [
        { planner, registry, modelTimeouts: { idleMs: "5s" } },
        'Option modelTimeouts.idleMs must be a number of at least 1, got "5s"',
      ],
      [
        { planner, registry, policy: { send: { retries: -2 } } },
        "Option policy.send.retries must be an integer of at least 0, got -2",
      ],
      [
        { planner, registry, policy: { send: { approval: "always" } } },
        'Option policy.send.approval must be "plan", "step" or a function, got "always"',
      ],
      [{ planner, registry, policy: [] }, "Option policy must be an object of tool policies by tool name, got []"],
      [{ planner, registry, replyStreaming: "late" }, 'Option replyStreaming must be "safe" or "early", got "late"'],
      [
        { planner, registry, integrate: "templates" },
        'Option integrate must be "model" or "template", got "templates"',
      ],
      [{ planner, registry, sleep: 10 }, "Option sleep must be a function, got 10"],
      [{ planner: {}, registry }, "Option planner.stream must be an object with a stream() method, got undefined"],
      [{ planner, registry: {} }, "Option registry.call must be a ToolRegistry, got undefined"],
      [{ registry }, "Option planner must be an object with a stream() method, got undefined"],
      [{ planner, registry: "tools" }, 'Option registry must be a ToolRegistry, got "tools"'],
    ];
    for (const [options, message] of cases) {
      expect(() => new AgentRuntime(options as unknown as ConstructorParameters<typeof AgentRuntime>[0])).toThrow(
        message,
      );
    }
    // Infinity is a number of at least 1.
    expect(() => new AgentRuntime({ planner, registry, maxConcurrency: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it("refuses a tool trait that is not a boolean and a field no policy, budget or backoff has, so none is ignored", () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [] });
    const cases: [Record<string, unknown>, string][] = [
      // "false" would read as true: a tool with side effects would start early and be cached.
      [{ policy: { send: { readOnly: "false" } } }, 'Option policy.send.readOnly must be true or false, got "false"'],
      [{ policy: { send: { idempotent: 1 } } }, "Option policy.send.idempotent must be true or false, got 1"],
      [{ policy: { lookup: { cache: "no" } } }, 'Option policy.lookup.cache must be true or false, got "no"'],
      // A misspelled approval would let the tool run unapproved.
      [
        { policy: { send: { aproval: "plan" } } },
        'Option policy.send has no field "aproval"; did you mean "approval"?',
      ],
      [{ budget: { toolcalls: 5 } }, 'Option budget has no field "toolcalls"; did you mean "toolCalls"?'],
      [{ modelTimeouts: { idleMS: 5 } }, 'Option modelTimeouts has no field "idleMS"; did you mean "idleMs"?'],
      [{ backoff: { initalMs: 5 } }, 'Option backoff has no field "initalMs"; did you mean "initialMs"?'],
      [{ backoff: { jitter: 2 } }, "Option backoff.jitter must be a number from 0 to 1, got 2"],
      [{ backoff: { maxMs: Number.NaN } }, "Option backoff.maxMs must be a number of at least 0, got NaN"],
      [{ reflector: {} }, "Option reflector must be an object with a reflect() method, got {}"],
      [{ cache: true }, "Option cache must be false or an object with get() and set() methods, got true"],
      [{ memory: {} }, "Option memory must be false or an object with read() and write() methods, got {}"],
      [{ clock: {} }, "Option clock must be an object with now(), setTimeout() and clearTimeout(), got {}"],
    ];
    for (const [extra, message] of cases) {
      const options = { planner, registry, ...extra } as unknown as ConstructorParameters<typeof AgentRuntime>[0];
      expect(() => new AgentRuntime(options)).toThrow(message);
    }
    const tools = {
      send: { readOnly: false, idempotent: true, cache: false, retries: 1, timeoutMs: 5, approval: "plan" },
    };
    const backoff = { initialMs: 0, factor: 1, maxMs: 10, jitter: 1 };
    expect(() => new AgentRuntime({ planner, registry, policy: tools, backoff } as never)).not.toThrow();
  });

  it("refuses a key that names no option, naming it and the closest option", () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [] });
    const refusal = (action: () => unknown): string => {
      try {
        action();
      } catch (error) {
        if (PlankitError.isInstance(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return "accepted";
    };
    const build = (extra: Record<string, unknown>) => () =>
      new AgentRuntime({ planner, registry, ...extra } as ConstructorParameters<typeof AgentRuntime>[0]);
    expect(refusal(build({ maxReplan: 3 }))).toBe(
      'invalid-options: Unknown AgentRuntime option "maxReplan"; did you mean "maxReplans"?',
    );
    expect(refusal(build({ Policy: {} }))).toBe(
      'invalid-options: Unknown AgentRuntime option "Policy"; did you mean "policy"?',
    );
    expect(refusal(build({ undefinedButUnknown: undefined }))).toMatch(
      /^invalid-options: Unknown AgentRuntime option "undefinedButUnknown"; the options are planner, registry, .*maxReplans.*clock$/u,
    );
    // Every option the type declares is known.
    const every: Required<ConstructorParameters<typeof AgentRuntime>[0]> = {
      planner,
      registry,
      profile: "p",
      memory: false,
      reflector: { reflect: async () => ({ action: "new_plan", reason: "r" }) },
      model: createEchoModel(() => "ok"),
      eager: "safe",
      maxConcurrency: 1,
      timeoutMs: 1,
      retries: 0,
      backoff: {},
      maxReplans: 0,
      reflectionRetries: 0,
      budget: {},
      cache: false,
      policy: {},
      modelTimeouts: {},
      memoryTimeoutMs: 1,
      replyStreaming: "safe",
      integrate: "template",
      clock: { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined },
      random: () => 0,
      sleep: async () => undefined,
      idGenerator: () => "run",
      approvalTimeoutMs: 1,
      executeStep: async () => ({ ok: true, value: 1, attempts: 1 }) as never,
    };
    expect(refusal(() => new AgentRuntime(every))).toBe("accepted");
    const model = createScriptedModel({ responses: [] });
    expect(refusal(() => new LLMPlanner({ model, maxStep: 4 } as ConstructorParameters<typeof LLMPlanner>[0]))).toBe(
      'invalid-options: Unknown LLMPlanner option "maxStep"; did you mean "maxSteps"?',
    );
    expect(
      refusal(
        () =>
          new LLMPlanner({
            model,
            maxSteps: 2,
            repair: false,
            topK: 2,
            select: () => [],
            mode: "direct",
            clarify: false,
            fallbackText: "x",
            knowledgeBaseTool: "kb",
            modelTimeouts: { idleMs: 1, totalMs: 1 },
          } satisfies Required<ConstructorParameters<typeof LLMPlanner>[0]>),
      ),
    ).toBe("accepted");
    const runtime = new AgentRuntime({ planner, registry, memory: false });
    expect(refusal(() => runtime.run("go", { contxt: { a: 1 } } as never))).toBe(
      'invalid-options: Unknown run option "contxt"; did you mean "context"?',
    );
    expect(refusal(() => runtime.run("go", null as never))).toBe(
      "invalid-options: The run options must be an object, got null",
    );
  });

  it("refuses run options of the wrong kind, instead of a run that never ends or ignores them", () => {
    const { registry } = createTestRegistry();
    const runtime = new AgentRuntime({ planner: createFakePlanner({ steps: [] }), registry, memory: false });
    const cases: [Record<string, unknown>, string][] = [
      [{ signal: {} }, "Option signal of run must be an AbortSignal, got {}"],
      [{ signal: "stop" }, 'Option signal of run must be an AbortSignal, got "stop"'],
      [{ context: "Paris" }, 'Option context of run must be an object of values by key, got "Paris"'],
      [{ context: ["Paris"] }, 'Option context of run must be an object of values by key, got ["Paris"]'],
      [{ elapsedMs: Number.NaN }, "Option elapsedMs of run must be a number of at least 0, got NaN"],
      [{ elapsedMs: "5" }, 'Option elapsedMs of run must be a number of at least 0, got "5"'],
    ];
    for (const [options, message] of cases) expect(() => runtime.run("go", options as never)).toThrow(message);
    const signal = new AbortController().signal;
    expect(() => runtime.run("go", { signal, context: { city: "Paris" }, elapsedMs: 0 }).abort()).not.toThrow();
  });
});

describe("AgentRuntime: the policy names registered tools", () => {
  const sendEmail = () =>
    new ToolRegistry().register({
      name: "send_email",
      execute: (args) => ({ sent: args["to"] === "boss@example.com" }),
    });
  const steps = [
    { id: "s1", type: "tool", name: "send_email", args: { to: "boss@example.com" } },
    { id: "s2", type: "reply", text: "sent {{s1.sent}}" },
  ];

  it("refuses to start a run whose policy names a tool the registry does not have, so nothing runs unapproved", async () => {
    let sent = 0;
    const registry = new ToolRegistry().register({ name: "send_email", execute: () => ((sent += 1), { sent: true }) });
    const runtime = new AgentRuntime({
      planner: createFixedPlanner(steps),
      registry,
      memory: false,
      policy: { send_mail: { approval: "plan" } },
    });
    let caught: unknown;
    try {
      runtime.run("email the boss");
    } catch (error) {
      caught = error;
    }
    expect(PlankitError.isInstance(caught) && caught.code).toBe("invalid-options");
    expect((caught as Error).message).toBe(
      'Option policy names tool "send_mail", which is not registered: its rules (approval among them) would apply to no call; did you mean "send_email"?',
    );
    await expect(runtime.step("email the boss")).rejects.toMatchObject({ code: "invalid-options" });
    expect(sent).toBe(0);
  });

  it("checks against the registry as it is when the run starts: a tool registered later is found", async () => {
    const registry = new ToolRegistry();
    const runtime = new AgentRuntime({
      planner: createFixedPlanner(steps),
      registry,
      memory: false,
      policy: { send_email: { approval: "plan" } },
    });
    expect(() => runtime.run("email the boss")).toThrow(
      'Option policy names tool "send_email", which is not registered: its rules (approval among them) would apply to no call',
    );
    registry.register({ name: "send_email", execute: () => ({ sent: true }) });
    const run = runtime.run("email the boss");
    const events = run[Symbol.asyncIterator]();
    for (let next = await events.next(); next.done !== true; next = await events.next())
      if (next.value.type === "approval-request") break;
    expect(run.waitingForApproval).toBe(true);
    run.abort();
    await run.done;
    // Any key is checked, whatever it sets, and one far from every name gets no suggestion.
    for (const policy of [{ Send_Email: { readOnly: true } }, { zzz: {} }]) {
      const other = new AgentRuntime({
        planner: createFixedPlanner(steps),
        registry: sendEmail(),
        memory: false,
        policy,
      });
      expect(() => other.run("go")).toThrow(/^Option policy names tool "(Send_Email|zzz)", which is not registered/u);
    }
    const far = new AgentRuntime({
      planner: createFixedPlanner(steps),
      registry: sendEmail(),
      memory: false,
      policy: { zzz: {} },
    });
    expect(() => far.run("go")).toThrow(/would apply to no call$/u);
  });
});
