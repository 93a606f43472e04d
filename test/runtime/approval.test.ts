/**
 * Human approval of side effects: one request per source, nothing starts
 * before its decision, deny, edit, re-ask, timeout, abort and replay.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { parseJsonl } from "../../src/events/parse-jsonl.ts";
import { replay } from "../../src/events/replay.ts";
import type { ApprovalRequestEvent, RuntimeEvent } from "../../src/events/runtime-event.ts";
import { toJsonl } from "../../src/events/to-jsonl.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import type { Planner } from "../../src/planner/planner.ts";
import type { PlannerEvent, ReplanRequest } from "../../src/planner/planner-event.ts";
import { AgentRuntime, type AgentRuntimeOptions, type RunHandle } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import type { ToolPolicy } from "../../src/runtime/tool-policy.ts";
import { createFakePlanner, deferred, delay, invariantProblems, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const quiet = {
  memory: false,
  reflector: noOpReflector,
  integrate: "template",
  backoff: { initialMs: 1, jitter: 0 },
  sleep: async () => undefined,
} as const;

/** Reads a run's events until it waits only for decisions (or ended). */
async function untilWaiting(run: RunHandle): Promise<void> {
  const iterator = run[Symbol.asyncIterator]();
  // Not waiting and not ended means a step runs or a decision moved the run on: another event comes.
  while (!run.waitingForApproval && run.state.status !== "ended") {
    const next = await iterator.next();
    if (next.done === true) break;
  }
}

/** Reads a run's events until one of the type arrives (without leaving an iteration early, which would abort it). */
async function untilEvent(run: RunHandle, type: RuntimeEvent["type"]): Promise<void> {
  const iterator = run[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done === true || next.value.type === type) return;
  }
}

/** The approval requests of a run. */
function requestsOf(events: readonly RuntimeEvent[]): ApprovalRequestEvent[] {
  return events.filter((event): event is ApprovalRequestEvent => event.type === "approval-request");
}

/** The position of the first event matching. */
function positionOf(events: readonly RuntimeEvent[], match: (event: RuntimeEvent) => boolean): number {
  return events.findIndex(match);
}

/** The error a function throws, as a PlankitError. */
function thrown(action: () => void): PlankitError {
  try {
    action();
  } catch (error) {
    if (PlankitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a PlankitError");
}

/** A runtime over the test tools with the given approval policy. */
function setup(steps: PlanStep[], policy: Record<string, ToolPolicy>, options: Partial<AgentRuntimeOptions> = {}) {
  const { registry, calls } = createTestRegistry();
  const planner = options.planner ?? createFakePlanner({ steps });
  const runtime = new AgentRuntime({ planner, registry, ...quiet, policy, ...options });
  return { runtime, calls };
}

describe("approval: the request", () => {
  it("lists exactly the steps that need approval, once, when the plan ended; read-only steps run meanwhile", async () => {
    const { runtime, calls } = setup(
      [
        tool("s1", "lookup", { q: "paris" }),
        tool("s2", "send", { to: "ann", text: "{{s1.value}}" }, { description: "Mail Ann the forecast" }),
        tool("s3", "put", { key: "k", value: 1 }),
        tool("s4", "remove", { id: "r1" }),
        reply("s5", "done {{s2.sent}} {{s4.removed}}"),
      ],
      { send: { approval: "plan" }, remove: { approval: "step" } },
    );
    const run = runtime.run("go");
    await untilWaiting(run);
    expect(run.waitingForApproval).toBe(true);
    const requests = requestsOf(run.events);
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request).toMatchObject({ requestId: "a1", source: "plan", attempt: 1 });
    expect(request.steps.map((step) => step.stepId)).toEqual(["s2", "s4"]);
    expect(request.steps[0]).toMatchObject({ tool: "send", description: "Mail Ann the forecast", mode: "plan" });
    expect(request.steps[1]).toMatchObject({
      tool: "remove",
      description: "Delete a record",
      arguments: { id: "r1" },
      waiting: [],
      mode: "step",
    });
    // The request comes after plan-end; the read-only lookup and the idempotent put need none and ran.
    expect(positionOf(run.events, (event) => event.type === "plan-end")).toBeLessThan(
      positionOf(run.events, (event) => event.type === "approval-request"),
    );
    expect(calls.map((call) => call.name).sort()).toEqual(["lookup", "put"]);
    expect(run.state.awaitingApproval).toEqual(["s2", "s4"]);
    run.approve([
      { stepId: "s2", approved: true },
      { stepId: "s4", approved: true },
    ]);
    const state = await run.done;
    expect(state.reason).toBe("completed");
    expect(calls.map((call) => call.name).sort()).toEqual(["lookup", "put", "remove", "send"]);
    expect(state.reply?.text).toBe("done ann r1");
    expect(requestsOf(run.events)).toHaveLength(1);
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("shows the arguments as far as they are known and which still wait on references", async () => {
    const gate = deferred();
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "slow",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: async () => (await gate.promise, { v: 2 }),
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "a" }),
        tool("s2", "slow"),
        tool("s3", "send", { to: "{{s1.value}}", text: "n={{s2.v}}", copy: "{{context.me}}" }),
      ],
      stepDelayMs: 5,
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "plan" } } }).run("go", {
      context: { me: "me@x" },
    });
    await untilEvent(run, "approval-request");
    const [request] = requestsOf(run.events);
    expect(request!.steps[0]!.arguments).toEqual({ to: "a!", text: "n={{s2.v}}", copy: "me@x" });
    expect(request!.steps[0]!.waiting).toEqual([{ pointer: "/text", reference: "{{s2.v}}" }]);
    gate.resolve();
  });

  it("asks once per source: a re-plan patch gets its own request listing only its steps", async () => {
    const { registry, calls } = createTestRegistry();
    const planner: Planner = {
      ...createFakePlanner({
        steps: [tool("s1", "send", { to: "ann" }), tool("s2", "fail", { after: "{{s1.sent}}" }), reply("s3", "{{s2}}")],
      }),
      replan: async (request: ReplanRequest) =>
        request.failed.length > 0
          ? [tool("p1", "lookup", { q: "b" }), tool("p2", "send", { to: "bob" }), reply("p3", "{{p1.value}}")]
          : [],
    };
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      retries: 0,
      policy: { send: { approval: "plan" } },
    }).run("go");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: true });
    await untilWaiting(run);
    const requests = requestsOf(run.events);
    expect(
      requests.map((request) => [request.source, request.attempt, request.steps.map((step) => step.stepId)]),
    ).toEqual([
      ["plan", 1, ["s1"]],
      ["replan", 1, ["p2"]],
    ]);
    expect(calls.filter((call) => call.name === "send").map((call) => call.args["to"])).toEqual(["ann"]);
    run.approve({ stepId: "p2", approved: true });
    expect((await run.done).reply?.text).toBe("b!");
    expect(calls.filter((call) => call.name === "send").map((call) => call.args["to"])).toEqual(["ann", "bob"]);
  });

  it("asks once per native tool-call turn, after the turn ended", async () => {
    const { registry, calls } = createTestRegistry();
    const planner: Planner = {
      async *stream(request): AsyncIterable<PlannerEvent> {
        yield { type: "step", step: tool("c1", "send", { to: "a" }), index: 0 };
        yield { type: "step", step: tool("c2", "lookup", { q: "x" }), index: 1 };
        yield { type: "turn-end", turn: 1, clean: true, finishReason: "tool-calls" };
        await request.awaitOutcomes?.(["c1", "c2"]);
        yield { type: "step", step: tool("c3", "send", { to: "b" }), index: 2 };
        yield { type: "turn-end", turn: 2, clean: true, finishReason: "tool-calls" };
        await request.awaitOutcomes?.(["c3"]);
        yield { type: "step", step: reply("c4", "ok"), index: 3 };
        yield { type: "done", steps: [], clean: true, finishReason: "stop", fallback: false, usage: { modelCalls: 3 } };
      },
      replan: async () => [],
    };
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "plan" } } }).run("go");
    await untilWaiting(run);
    expect(
      requestsOf(run.events).map((request) => [request.attempt, request.steps.map((step) => step.stepId)]),
    ).toEqual([[1, ["c1"]]]);
    run.approve({ stepId: "c1", approved: true });
    await untilWaiting(run);
    expect(
      requestsOf(run.events).map((request) => [request.attempt, request.steps.map((step) => step.stepId)]),
    ).toEqual([
      [1, ["c1"]],
      [2, ["c3"]],
    ]);
    run.approve({ stepId: "c3", approved: true });
    const state = await run.done;
    expect(state.reason).toBe("completed");
    expect(calls.map((call) => call.name)).toEqual(["lookup", "send", "send"]);
  });

  it("holds a read-only tool the application marked, whatever its MCP annotations say, and with eager: all", async () => {
    const { runtime, calls } = setup(
      [tool("s1", "lookup", { q: "secret" }), reply("s2", "{{s1.value}}")],
      { lookup: { approval: "plan" } },
      { eager: "all" },
    );
    const run = runtime.run("go");
    await untilWaiting(run);
    expect(calls).toEqual([]);
    expect(run.events.find((event) => event.type === "step-planned")).toMatchObject({ safe: false });
    run.approve({ stepId: "s1", approved: true });
    expect((await run.done).reply?.text).toBe("secret!");
  });

  it("a plan cannot lift it: a step's own approval field is not read", async () => {
    const lifted = {
      ...tool("s1", "send", { to: "x" }),
      approval: "none",
      policy: { approval: "none" },
    } as unknown as PlanStep;
    const { runtime, calls } = setup([lifted, reply("s2", "ok")], { send: { approval: "plan" } });
    const run = runtime.run("go");
    await untilWaiting(run);
    expect(requestsOf(run.events).map((request) => request.steps.map((step) => step.stepId))).toEqual([["s1"]]);
    expect(calls).toEqual([]);
    run.abort();
  });

  it("an unclean plan skips its side effects as before and lists only its read-only steps that need approval", async () => {
    const { registry, calls } = createTestRegistry();
    const planner = createFakePlanner({
      steps: [tool("s1", "send", { to: "x" }), tool("s2", "lookup", { q: "a" }), tool("s3", "lookup", { q: "b" })],
      clean: false,
    });
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      policy: {
        send: { approval: "plan" },
        lookup: { approval: ({ arguments: args }) => (args["q"] === "a" ? "plan" : "none") },
      },
    }).run("go");
    await untilWaiting(run);
    expect(requestsOf(run.events).map((request) => request.steps.map((step) => step.stepId))).toEqual([["s2"]]);
    expect(run.state.steps[0]).toMatchObject({ status: "skipped", skip: { code: "unsafe-plan" } });
    expect(calls.map((call) => call.args["q"])).toEqual(["b"]);
    run.approve({ stepId: "s2", approved: true });
    await run.done;
    expect(calls.map((call) => call.args["q"])).toEqual(["b", "a"]);
  });

  it("needs none by default", async () => {
    const { runtime, calls } = setup([tool("s1", "send", { to: "x" }), reply("s2", "ok")], {});
    const run = runtime.run("go");
    const state = await run.done;
    expect(state.reason).toBe("completed");
    expect(calls).toHaveLength(1);
    expect(requestsOf(run.events)).toEqual([]);
  });

  it("rejects an approval policy that is not plan, step or a function", () => {
    const { registry } = createTestRegistry();
    const error = thrown(
      () =>
        new AgentRuntime({
          planner: createFakePlanner({ steps: [] }),
          registry,
          policy: { send: { approval: "always" as never } },
        }),
    );
    expect(error.code).toBe("invalid-options");
    expect(error.message).toContain("policy.send.approval");
    expect(error.message).toContain('"always"');
  });
});

describe("approval: decisions", () => {
  it("deny skips the step and its dependents with the reason; other steps go on", async () => {
    const { runtime, calls } = setup(
      [
        tool("s1", "send", { to: "ann" }),
        tool("s2", "put", { key: "{{s1.sent}}" }),
        tool("s3", "lookup", { q: "z" }),
        reply("s4", "{{s3.value}}"),
      ],
      { send: { approval: "plan" } },
    );
    const run = runtime.run("go");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: false, reason: "not today" });
    const state = await run.done;
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    const skipped = run.events.filter((event) => event.type === "step-skipped");
    expect(skipped[0]).toMatchObject({ stepId: "s1", code: "denied", reason: "not today" });
    expect(skipped[1]).toMatchObject({ stepId: "s2", code: "dependency-failed" });
    expect(run.events.find((event) => event.type === "approval-decision")).toMatchObject({
      stepId: "s1",
      approved: false,
      reason: "not today",
      by: "caller",
    });
    expect(state.steps[0]?.approval).toMatchObject({ status: "denied", reason: "not today", by: "caller" });
    expect(state.reply?.text).toBe("z!");
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("a denial without a reason carries none: no reason is invented for the event, the skip or the answer", async () => {
    for (const reason of [undefined, "", "  "]) {
      const { runtime, calls } = setup([tool("s1", "send", { to: "ann" }), reply("s2", "sent {{s1.sent}}")], {
        send: { approval: "plan" },
      });
      const run = runtime.run("go");
      await untilWaiting(run);
      run.approve(reason === undefined ? { stepId: "s1", approved: false } : { stepId: "s1", approved: false, reason });
      const state = await run.done;
      expect(calls).toEqual([]);
      const decision = run.events.find((event) => event.type === "approval-decision");
      expect(decision).toMatchObject({ stepId: "s1", approved: false, by: "caller" });
      expect(decision !== undefined && "reason" in decision).toBe(false);
      expect(state.steps[0]?.approval).toMatchObject({ status: "denied", by: "caller" });
      expect(state.steps[0]?.approval?.reason).toBeUndefined();
      expect(state.steps[0]?.skip).toEqual({ code: "denied", reason: "It was denied" });
      expect(state.reply).toEqual({ text: "Results:\n- s1 (send) was not done: denied", source: "template" });
      expect(state.reason).toBe("completed");
      expect(invariantProblems(run.events)).toEqual([]);
    }
  });

  it("deny with replan asks the planner for what is left, with the denial as the failure", async () => {
    const { registry, calls } = createTestRegistry();
    const replans: ReplanRequest[] = [];
    const planner: Planner = {
      ...createFakePlanner({ steps: [tool("s1", "send", { to: "ann" }), reply("s2", "sent {{s1.sent}}")] }),
      replan: async (request: ReplanRequest) => {
        replans.push(request);
        return [tool("p1", "put", { key: "draft" }), reply("p2", "saved {{p1.stored}}")];
      },
    };
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "plan" } } }).run("go");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: false, reason: "save a draft instead", replan: true });
    const state = await run.done;
    expect(replans).toHaveLength(1);
    expect(replans[0]!.failed.map((failed) => [failed.step.id, failed.error])).toEqual([
      ["s1", 'Step "s1" was denied: save a draft instead'],
    ]);
    expect(calls.map((call) => call.name)).toEqual(["put"]);
    expect(state.reply?.text).toBe("saved draft");
    expect(state.reason).toBe("completed");
  });

  it("edited arguments are validated again: an invalid edit is refused with the path and value and changes nothing", async () => {
    const { runtime, calls } = setup(
      [tool("s1", "send", { to: "ann", text: "hi" }), tool("s2", "remove", { id: "r1" }), reply("s3", "ok")],
      {
        send: { approval: "plan" },
        remove: { approval: "plan" },
      },
    );
    const run = runtime.run("go");
    await untilWaiting(run);
    const invalid = thrown(() =>
      run.approve([
        { stepId: "s2", approved: true },
        { stepId: "s1", approved: true, arguments: { to: 42, text: "hi" } },
      ]),
    );
    expect(invalid.code).toBe("invalid-argument");
    expect(invalid.message).toContain('step "s1"');
    expect(invalid.message).toContain("/to");
    expect(invalid.message).toContain("42");
    // Nothing of the refused batch applied: both still wait.
    expect(run.state.awaitingApproval).toEqual(["s1", "s2"]);
    expect(run.events.some((event) => event.type === "approval-decision")).toBe(false);
    const missing = thrown(() => run.approve({ stepId: "s1", approved: true, arguments: { text: "hi" } }));
    expect(missing.message).toContain("/to");
    const reference = thrown(() => run.approve({ stepId: "s1", approved: true, arguments: { to: "{{s2.removed}}" } }));
    expect(reference).toMatchObject({ code: "invalid-approval" });
    expect(reference.message).toContain('"s2"');
    run.approve([
      { stepId: "s1", approved: true, arguments: { to: "bob", text: "edited" } },
      { stepId: "s2", approved: true },
    ]);
    const state = await run.done;
    expect(calls.find((call) => call.name === "send")?.args).toEqual({ to: "bob", text: "edited" });
    expect(run.events.find((event) => event.type === "approval-decision" && event.stepId === "s1")).toMatchObject({
      arguments: { to: "bob", text: "edited" },
    });
    expect(state.steps[0]?.approval).toMatchObject({ status: "approved", arguments: { to: "bob", text: "edited" } });
  });

  it("refuses decisions for unknown, not-gated and already-decided steps, naming the step", async () => {
    const { runtime } = setup(
      [tool("s1", "send", { to: "ann" }), tool("s2", "lookup", { q: "a" }), reply("s3", "ok")],
      { send: { approval: "plan" } },
    );
    const run = runtime.run("go");
    await untilWaiting(run);
    expect(thrown(() => run.approve({ stepId: "s9", approved: true }))).toMatchObject({
      code: "invalid-approval",
      message: 'No step "s9" in this run',
    });
    expect(thrown(() => run.approve({ stepId: "s2", approved: true })).message).toBe(
      'Step "s2" does not need approval',
    );
    expect(thrown(() => run.approve({ stepId: "s1", approved: "yes" } as never)).message).toContain('"yes"');
    expect(
      thrown(() =>
        run.approve([
          { stepId: "s1", approved: true },
          { stepId: "s1", approved: false },
        ]),
      ).message,
    ).toContain("twice");
    run.approve({ stepId: "s1", approved: true });
    expect(thrown(() => run.approve({ stepId: "s1", approved: false })).message).toBe('Step "s1" was already approved');
    await run.done;
    expect(thrown(() => run.approve({ stepId: "s1", approved: true })).message).toContain("already ended");
  });

  it("refuses a decision for a gated step whose plan is still streaming, and takes it once the step is asked", async () => {
    const gate = deferred();
    const planner = createFakePlanner({
      steps: [tool("s1", "send", { to: "ann" }), reply("s2", "ok")],
      afterStep: async (step) => {
        if (step.id === "s1") await gate.promise;
      },
    });
    const { runtime, calls } = setup([], { send: { approval: "plan" } }, { planner });
    const run = runtime.run("go");
    await untilEvent(run, "step-planned");
    expect(run.waitingForApproval).toBe(false);
    const early = thrown(() => run.approve({ stepId: "s1", approved: true }));
    expect(early).toMatchObject({
      code: "invalid-approval",
      message: 'Step "s1" has not been asked for approval yet: the source that wrote it is still streaming',
    });
    // The refusal changed nothing: no decision was recorded and the step is still unasked.
    expect(run.events.filter((event) => event.type === "approval-decision")).toEqual([]);
    gate.resolve();
    await untilWaiting(run);
    expect(run.state.awaitingApproval).toEqual(["s1"]);
    run.approve({ stepId: "s1", approved: true });
    expect((await run.done).reason).toBe("completed");
    expect(calls.map((call) => call.name)).toEqual(["send"]);
  });

  it("a step tool whose arguments were all known when shown is not asked again", async () => {
    const { runtime, calls } = setup([tool("s1", "send", { to: "ann" }), reply("s2", "ok")], {
      send: { approval: "step" },
    });
    const run = runtime.run("go");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: true });
    expect((await run.done).reason).toBe("completed");
    expect(requestsOf(run.events)).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it("re-asks a step tool whose references resolve after the request, with the resolved arguments", async () => {
    const gate = deferred();
    const { registry, calls } = createTestRegistry({
      extra: [
        {
          name: "slow",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: async () => (await gate.promise, { to: "zoe" }),
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [tool("s1", "slow"), tool("s2", "send", { to: "{{s1.to}}" }), reply("s3", "ok")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "step" } } }).run("go");
    await untilEvent(run, "approval-request");
    expect(requestsOf(run.events)[0]!.steps[0]).toMatchObject({
      arguments: { to: "{{s1.to}}" },
      waiting: [{ pointer: "/to", reference: "{{s1.to}}" }],
    });
    run.approve({ stepId: "s2", approved: true });
    gate.resolve();
    await untilWaiting(run);
    const requests = requestsOf(run.events);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatchObject({
      source: "step",
      steps: [{ stepId: "s2", arguments: { to: "zoe" }, waiting: [] }],
    });
    expect(calls.some((call) => call.name === "send")).toBe(false);
    expect(run.state.awaitingApproval).toEqual(["s2"]);
    run.approve({ stepId: "s2", approved: true });
    expect((await run.done).reason).toBe("completed");
    expect(calls.find((call) => call.name === "send")?.args).toEqual({ to: "zoe" });
    expect(requestsOf(run.events)).toHaveLength(2);
  });

  it("a plan tool is approved once, whatever its references bring", async () => {
    const gate = deferred();
    const { registry, calls } = createTestRegistry({
      extra: [
        {
          name: "slow",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: async () => (await gate.promise, { to: "zoe" }),
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [tool("s1", "slow"), tool("s2", "send", { to: "{{s1.to}}" }), reply("s3", "ok")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "plan" } } }).run("go");
    await untilEvent(run, "approval-request");
    run.approve({ stepId: "s2", approved: true });
    gate.resolve();
    expect((await run.done).reason).toBe("completed");
    expect(requestsOf(run.events)).toHaveLength(1);
    expect(calls.find((call) => call.name === "send")?.args).toEqual({ to: "zoe" });
  });

  it("a function policy is asked again with the resolved arguments, so a value arriving by reference cannot slip past it", async () => {
    const seen: [unknown, boolean][] = [];
    const paid: unknown[] = [];
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "quote",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: () => ({ total: 500 }),
        },
        {
          name: "pay",
          inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
          execute: (args) => (paid.push(args["amount"]), { ok: true }),
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [
        tool("s1", "quote"),
        tool("s2", "pay", { amount: "{{s1.total}}" }),
        tool("s3", "pay", { amount: 5 }),
        reply("s4", "ok"),
      ],
    });
    const approval = ({
      arguments: args,
      resolved,
    }: {
      arguments: Readonly<Record<string, unknown>>;
      resolved: boolean;
    }) => {
      seen.push([args["amount"], resolved]);
      return Number(args["amount"]) > 100 ? ("step" as const) : ("none" as const);
    };
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { pay: { approval } } }).run("go");
    await untilWaiting(run);
    const requests = requestsOf(run.events);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ source: "step", steps: [{ stepId: "s2", arguments: { amount: 500 } }] });
    expect(paid).toEqual([5]);
    expect(seen).toContainEqual(["{{s1.total}}", false]);
    expect(seen).toContainEqual([500, true]);
    run.approve({ stepId: "s2", approved: true });
    expect((await run.done).reason).toBe("completed");
    expect(paid).toEqual([5, 500]);
  });

  it("a reflector cannot change the arguments of a step that needs approval", async () => {
    let attempts = 0;
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "pay",
          inputSchema: { type: "object" },
          execute: () => (attempts++, Promise.reject(new Error("declined"))),
        },
      ],
    });
    const planner = createFakePlanner({ steps: [tool("s1", "pay", { amount: 5 }), reply("s2", "ok")] });
    const reflector = {
      reflect: async () => ({ action: "retry" as const, reason: "more", arguments: { amount: 5000 } }),
    };
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      reflector,
      maxReplans: 0,
      policy: { pay: { approval: "plan" } },
    }).run("go");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: true });
    await run.done;
    expect(attempts).toBe(1);
  });
});

it("a person's edit of arguments a reflector changed is what runs, and is not asked about again", async () => {
  const seen: unknown[] = [];
  const { registry } = createTestRegistry({
    extra: [
      {
        name: "find",
        inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        annotations: { readOnlyHint: true },
        execute: (args) => {
          seen.push(args["q"]);
          if (seen.length === 1) throw new Error("no match");
          return { found: args["q"] };
        },
      },
    ],
  });
  const planner = createFakePlanner({ steps: [tool("s1", "find", { q: "cats" }), reply("s2", "{{s1.found}}")] });
  const reflector = { reflect: () => ({ action: "retry" as const, reason: "broader", arguments: { q: "*" } }) };
  const run = new AgentRuntime({
    planner,
    registry,
    ...quiet,
    retries: 0,
    reflector,
    maxReplans: 0,
    policy: { find: { approval: "plan" } },
  }).run("go");
  const events: RuntimeEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type !== "approval-request") continue;
    if (requestsOf(events).length > 2) break;
    const edit = event.source === "step" ? { arguments: { q: "dogs" } } : {};
    run.approve({ stepId: "s1", approved: true, ...edit });
  }
  expect(requestsOf(events).map((request) => request.steps[0]?.arguments)).toEqual([{ q: "cats" }, { q: "*" }]);
  expect(seen).toEqual(["cats", "dogs"]);
  expect(run.state.reply?.text).toBe("dogs");
});

describe("approval: waiting", () => {
  it("times out: undecided steps are denied by timeout", async () => {
    const { runtime, calls } = setup(
      [tool("s1", "send", { to: "ann" }), reply("s2", "{{s1.sent}}")],
      { send: { approval: "plan" } },
      { approvalTimeoutMs: 20 },
    );
    const run = runtime.run("go");
    const state = await run.done;
    expect(requestsOf(run.events)[0]).toMatchObject({ timeoutMs: 20 });
    expect(run.events.find((event) => event.type === "approval-decision")).toMatchObject({
      stepId: "s1",
      approved: false,
      by: "timeout",
      reason: "No decision within 20 ms",
    });
    expect(state.steps[0]).toMatchObject({ status: "skipped", skip: { code: "denied" } });
    expect(state.awaitingApproval).toEqual([]);
    expect(calls).toEqual([]);
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("abort ends the wait: the step is skipped as aborted and the run ends", async () => {
    const { runtime, calls } = setup(
      [tool("s1", "send", { to: "ann" }), reply("s2", "ok")],
      { send: { approval: "plan" } },
      { approvalTimeoutMs: 60_000 },
    );
    const controller = new AbortController();
    const run = runtime.run("go", { signal: controller.signal });
    await untilWaiting(run);
    controller.abort();
    const state = await run.done;
    expect(state.reason).toBe("aborted");
    expect(state.steps[0]).toMatchObject({ status: "skipped", skip: { code: "aborted" } });
    expect(state.awaitingApproval).toEqual([]);
    expect(calls).toEqual([]);
    expect(thrown(() => run.approve({ stepId: "s1", approved: true })).code).toBe("invalid-approval");
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("waitingForApproval stays false while a read-only step still runs", async () => {
    const gate = deferred();
    const { registry } = createTestRegistry({
      extra: [
        {
          name: "slow",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
          execute: async () => (await gate.promise, 1),
        },
      ],
    });
    const planner = createFakePlanner({
      steps: [tool("s1", "slow"), tool("s2", "send", { to: "a" }), reply("s3", "ok")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "plan" } } }).run("go");
    await untilEvent(run, "approval-request");
    expect(run.waitingForApproval).toBe(false);
    gate.resolve();
    await untilWaiting(run);
    expect(run.waitingForApproval).toBe(true);
    run.abort();
  });

  it("replay of a log cut while waiting gives the waiting state, through JSONL too", async () => {
    const { runtime } = setup(
      [tool("s1", "lookup", { q: "a" }), tool("s2", "send", { to: "{{s1.value}}" }), reply("s3", "ok")],
      { send: { approval: "plan" } },
    );
    const run = runtime.run("go");
    await untilWaiting(run);
    const log = [...run.events];
    const rebuilt = replay(parseJsonl(toJsonl(log)));
    expect(rebuilt).toEqual(JSON.parse(JSON.stringify(run.state)));
    expect(rebuilt.status).toBe("running");
    expect(rebuilt.awaitingApproval).toEqual(["s2"]);
    expect(rebuilt.steps[1]).toMatchObject({
      status: "planned",
      approval: { status: "requested", requestId: "a1", arguments: { to: "a!" } },
    });
    run.approve({ stepId: "s2", approved: true });
    const state = await run.done;
    expect(replay(run.events)).toEqual(state);
    expect(state.awaitingApproval).toEqual([]);
  });
});

describe("approval: property", () => {
  it("no step that needs approval ever starts without an approve decision for it after its latest request", async () => {
    const names = ["lookup", "send", "put", "remove"] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: fc.constantFrom(...names), dep: fc.option(fc.nat(), { nil: undefined }) }), {
          minLength: 1,
          maxLength: 7,
        }),
        fc.record({
          send: fc.constantFrom("plan", "step", undefined),
          remove: fc.constantFrom("plan", "step", undefined),
          lookup: fc.constantFrom("plan", undefined),
        }),
        fc.array(fc.constantFrom("approve", "deny", "edit", "wait"), { minLength: 20, maxLength: 20 }),
        async (shape, modes, answers) => {
          const steps: PlanStep[] = shape.map(({ name, dep }, index) => {
            const ref = dep !== undefined && index > 0 ? `{{s${(dep % index) + 1}}}` : "v";
            const args =
              name === "lookup"
                ? { q: ref }
                : name === "send"
                  ? { to: "x", text: ref }
                  : name === "put"
                    ? { key: "k", value: ref }
                    : { id: ref };
            return tool(`s${index + 1}`, name, args);
          });
          steps.push(reply(`s${steps.length + 1}`, "end"));
          const policy: Record<string, ToolPolicy> = {};
          for (const [name, mode] of Object.entries(modes)) if (mode !== undefined) policy[name] = { approval: mode };
          const { runtime } = setup(steps, policy, { approvalTimeoutMs: 200 });
          const run = runtime.run("go");
          let turn = 0;
          while (run.state.status !== "ended" && turn < answers.length) {
            await untilWaiting(run);
            if (!run.waitingForApproval) break;
            const answer = answers[turn++];
            const waiting = [...run.state.awaitingApproval];
            if (answer === "wait" || waiting.length === 0) {
              await delay(1);
              continue;
            }
            run.approve(
              waiting.map((stepId) => {
                if (answer === "deny") return { stepId, approved: false as const, reason: "no" };
                const step = steps.find((candidate) => candidate.id === stepId);
                return answer === "edit" && step?.type === "tool" && step.name === "send"
                  ? { stepId, approved: true as const, arguments: { to: "edited" } }
                  : { stepId, approved: true as const };
              }),
            );
          }
          if (run.state.status !== "ended") run.abort();
          await run.done;
          const events = run.events;
          expect(invariantProblems(events)).toEqual([]);
          const latest = new Map<string, string>();
          const approved = new Map<string, string>();
          for (const event of events) {
            if (event.type === "approval-request")
              for (const item of event.steps) latest.set(item.stepId, event.requestId);
            if (event.type === "approval-decision" && event.approved) approved.set(event.stepId, event.requestId);
            if (event.type === "step-start") {
              const step = steps.find((candidate) => candidate.id === event.stepId);
              const gated = step?.type === "tool" && policy[step.name] !== undefined;
              if (!gated) continue;
              expect(latest.has(event.stepId)).toBe(true);
              expect(approved.get(event.stepId)).toBe(latest.get(event.stepId));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
