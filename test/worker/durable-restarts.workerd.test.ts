import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PlanStep, type RuntimeEvent, type ToolPolicy, ToolRegistry } from "../../src/index.ts";
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../../src/model.ts";
import type { ReplanRequest } from "../../src/runtime.ts";
import type { RunSetup } from "../../worker/runs/create-run-setup.ts";
import { type DurableRunResult, executeDurableRun } from "../../worker/runs/execute-durable-run.ts";
import type { LoggedEvent } from "../../worker/runs/logged-event.ts";
import { createEchoModel, createFakePlanner, invariantProblems, reply, tool } from "../runtime/fake-planner.ts";
import { openSession } from "./durable-fixtures.workerd.ts";
import { FakeEngine, loggedEvents, until } from "./fake-engine.ts";

/** Tools that record each call: `lookup` (read-only; fails for a query that starts with `down`) and `send` (side effects), 10 ms each. */
function recordingTools() {
  const calls: { tool: string; arg: string }[] = [];
  const registry = new ToolRegistry().register([
    {
      name: "lookup",
      description: "Look a thing up",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      annotations: { readOnlyHint: true },
      execute: async ({ q }) => {
        calls.push({ tool: "lookup", arg: String(q) });
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (String(q).startsWith("down")) throw new Error("the archive is down");
        return { value: `${String(q)}!` };
      },
    },
    {
      name: "send",
      description: "Send a message",
      inputSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
      execute: async ({ to }) => {
        calls.push({ tool: "send", arg: String(to) });
        await new Promise((resolve) => setTimeout(resolve, 10));
        return { sent: String(to) };
      },
    },
  ]);
  return { registry, calls };
}

/**
 * A run whose plan streams one step every `stepDelayMs` (and then fails with
 * `fail`, if given), on a stand-in engine that can crash; its reflections
 * answer `verdict`.
 */
function durableRun(
  name: string,
  steps: PlanStep[],
  stepDelayMs = 15,
  fail?: Error,
  verdict = "abort",
  extra: {
    replan?: (request: ReplanRequest) => PlanStep[];
    model?: PlanModel & { requests: PlanModelRequest[] };
    policy?: Record<string, ToolPolicy>;
  } = {},
) {
  const { registry, calls } = recordingTools();
  const planner = createFakePlanner({
    steps,
    stepDelayMs,
    tailDelayMs: stepDelayMs,
    ...(fail === undefined ? {} : { fail }),
    ...(extra.replan === undefined ? {} : { replan: extra.replan }),
  });
  const model =
    extra.model ??
    createEchoModel((request) =>
      request.purpose === "reflect" ? `{"action":"${verdict}","reason":"unsure"}` : "An answer.",
    );
  const setup: RunSetup = {
    registry,
    planner,
    model,
    selected: { model, name: "scripted", provider: "test" },
    ...(extra.policy === undefined ? {} : { policy: extra.policy }),
  };
  const engine = new FakeEngine();
  const params = { runId: `run-${name}`, session: "restarts", query: "go", engine: 2 as const };
  const createdAt = Date.now();
  let session: Awaited<ReturnType<typeof openSession>> | undefined;
  const open = async () => {
    session ??= await openSession("restarts", params.runId);
    return session;
  };
  const sent: LoggedEvent["event"][] = [];
  const watched = (target: Awaited<ReturnType<typeof openSession>>) => ({
    append: (runId: string, items: LoggedEvent[]) => {
      sent.push(...items.map((item) => item.event));
      return target.append(runId, items);
    },
    readMemory: (query: string) => target.readMemory(query),
    writeMemory: (entry: Parameters<typeof target.writeMemory>[0]) => target.writeMemory(entry),
  });
  return {
    engine,
    calls,
    planner,
    model,
    /** Runs one execution to its end. */
    /** The events sent to the log, in order (also those it already had). */
    sent,
    async execute(): Promise<DurableRunResult> {
      return executeDurableRun({ params, step: engine.execution(), session: watched(await open()), setup, createdAt });
    },
    /**
     * Starts an execution that dies once `point` steps are stored (or when a
     * step whose name `point` accepts has run but is not stored yet), and
     * waits until its callbacks settled.
     */
    async crash(point: number | ((name: string) => boolean)): Promise<void> {
      if (typeof point === "number") engine.crashAfter = point;
      else engine.crashOn = point;
      const done = executeDurableRun({ params, step: engine.execution(), session: await open(), setup, createdAt });
      let ended = false;
      void done.then(() => {
        ended = true;
      });
      const dead = () => engine.crashAfter !== Number.POSITIVE_INFINITY && engine.running === 0;
      await until(() => ended || dead());
      await new Promise((resolve) => setTimeout(resolve, 4 * stepDelayMs));
      await until(() => ended || dead());
      // The dead execution can store nothing more once the next one begins.
      engine.execution();
      engine.crashOn = undefined;
      engine.crashAfter = Number.POSITIVE_INFINITY;
    },
    async log(): Promise<RuntimeEvent[]> {
      return loggedEvents(await open(), params.runId);
    },
  };
}

/** Each step's terminal event without timing: what the run's final state is made of. */
function outcomes(events: readonly RuntimeEvent[]): Record<string, unknown> {
  const ended: Record<string, unknown> = {};
  for (const event of events) {
    if (event.type === "step-end") ended[event.stepId] = { end: event.result };
    else if (event.type === "step-skipped") ended[event.stepId] = { skipped: event.code };
    else if (event.type === "step-error" && event.final) ended[event.stepId] = { error: event.error.code };
  }
  return ended;
}

function stepNames(engine: FakeEngine, prefix: string): string[] {
  return engine.calls.map((call) => call.name).filter((name) => name.startsWith(prefix));
}

describe("a durable run restarted while its plan streams", () => {
  it("keeps the reads it started, had started no side effect, and ends as the uninterrupted run", async () => {
    const steps = [
      tool("s1", "lookup", { q: "a" }),
      tool("s2", "send", { to: "{{s1.value}}" }),
      tool("s3", "lookup", { q: "b" }),
      tool("s4", "lookup", { q: "c" }),
      reply("s5", "{{s2.sent}} {{s3.value}} {{s4.value}}"),
    ];
    const reference = durableRun("mid-plan-reference", steps, 40);
    const expected = await reference.execute();
    expect(expected).toMatchObject({ reason: "completed", reply: "a! b! c!" });

    const run = durableRun("mid-plan", steps, 40);
    // Dies once the start and two reads are stored: the plan is still streaming.
    await run.crash(3);
    expect(run.engine.stored.has("plan/1")).toBe(false);
    expect(run.calls.filter((call) => call.tool === "lookup").map((call) => call.arg)).toEqual(["a", "b"]);
    expect(run.calls.some((call) => call.tool === "send")).toBe(false);
    expect(run.planner.log.requests).toHaveLength(1);

    const result = await run.execute();
    expect(result).toEqual({ ...expected, runId: "run-mid-plan" });
    // The plan was asked for again (it was not stored); the stored reads were not called again.
    expect(run.planner.log.requests).toHaveLength(2);
    expect(run.calls.map((call) => `${call.tool}:${call.arg}`).sort()).toEqual([
      "lookup:a",
      "lookup:b",
      "lookup:c",
      "send:a!",
    ]);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    expect(outcomes(events)).toEqual(outcomes(await reference.log()));
    expect(events.filter((event) => event.type === "step-start" && event.stepId === "s2")).toHaveLength(1);
  });
});

describe("a durable plan whose model call fails after steps reached the run", () => {
  it("stores the steps the run saw with the error: the engine does not stream it again, and a replay fails the same way", async () => {
    const steps = [tool("s1", "lookup", { q: "a" }), tool("s2", "send", { to: "b" }), reply("s3", "{{s1.value}}")];
    const run = durableRun("plan-fails", steps, 15, new Error("the model dropped the stream"));
    const result = await run.execute();
    // One model call: a retry would hand the same steps to the run a second time.
    expect(run.planner.log.requests).toHaveLength(1);
    expect(run.calls).toEqual([{ tool: "lookup", arg: "a" }]);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "plan-end")).toMatchObject({
      clean: false,
      error: { message: expect.stringContaining("dropped the stream") },
    });
    expect(outcomes(events)).toMatchObject({ s1: { end: { value: "a!" } }, s2: { skipped: "unsafe-plan" } });
    const replayed = await run.execute();
    expect(replayed).toEqual(result);
    expect(run.planner.log.requests).toHaveLength(1);
    expect(run.calls).toHaveLength(1);
    expect(await run.log()).toEqual(events);
  });
});

describe("a durable run restarted during a tool call", () => {
  it("ends the cut-off send with outcome-unknown without sending twice, and asks no recorded plan again", async () => {
    const steps = [
      tool("s1", "lookup", { q: "a" }),
      tool("s2", "send", { to: "{{s1.value}}" }),
      tool("s3", "lookup", { q: "b" }),
      reply("s4", "{{s2.sent}} {{s3.value}}"),
    ];
    const run = durableRun("mid-tools", steps);
    // The process dies as the send ends: it went out, but the engine did not store it.
    await run.crash((name) => name.startsWith("s2#") && !name.endsWith(":started"));
    expect(run.calls.filter((call) => call.tool === "send")).toHaveLength(1);
    expect(run.engine.stored.has("plan/1")).toBe(true);
    const result = await run.execute();
    expect(result.reason).toBe("failed");
    expect(run.calls.filter((call) => call.tool === "send")).toHaveLength(1);
    expect(run.planner.log.requests).toHaveLength(1);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    expect(outcomes(events)).toMatchObject({ s1: { end: { value: "a!" } }, s2: { error: "outcome-unknown" } });
    // The read started while the plan streamed; the send only after the plan was stored.
    const types = events.map((event) => `${event.type}:${"stepId" in event ? event.stepId : ""}`);
    expect(types.indexOf("step-start:s1")).toBeLessThan(types.indexOf("plan-end:"));
    expect(types.indexOf("step-start:s2")).toBeGreaterThan(types.indexOf("plan-end:"));
    expect(events.filter((event) => event.type === "step-start" && event.stepId === "s2")).toHaveLength(1);
  });
});

describe("the result cache of a durable run", () => {
  it("serves a read identical to one stored before a restart from storage: the tool is not called again", async () => {
    const steps = [
      tool("s1", "lookup", { q: "a" }),
      tool("s2", "lookup", { q: "a" }, { dependsOn: ["s1"] }),
      reply("s3", "{{s1.value}} {{s2.value}}"),
    ];
    const run = durableRun("cache-restart", steps);
    // s1 is stored; the process dies as s2 (served from the run's cache) ends, before the engine stores it.
    await run.crash((name) => name.startsWith("s2#"));
    expect(run.calls).toEqual([{ tool: "lookup", arg: "a" }]);
    const result = await run.execute();
    expect(result).toMatchObject({ reason: "completed", reply: "a! a!" });
    expect(run.calls).toEqual([{ tool: "lookup", arg: "a" }]);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    expect(events.find((event) => event.type === "step-start" && event.stepId === "s2")).toMatchObject({
      cached: true,
    });
  });
});

/** A random plan: up to five lookups (few distinct queries, so some repeat; some fail) and sends, referring to earlier steps. */
const plans = fc
  .array(
    fc.record({
      send: fc.boolean(),
      q: fc.constantFrom("a", "b", "down"),
      ref: fc.option(fc.nat(4), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((specs): PlanStep[] => {
    const steps = specs.map((spec, index): PlanStep => {
      const id = `s${index + 1}`;
      const earlier = spec.ref === undefined || index === 0 ? undefined : specs[spec.ref % index];
      const from =
        earlier === undefined || spec.ref === undefined
          ? ""
          : `{{s${(spec.ref % index) + 1}.${earlier.send ? "sent" : "value"}}}`;
      return spec.send ? tool(id, "send", { to: `m${index}${from}` }) : tool(id, "lookup", { q: `${spec.q}${from}` });
    });
    return [...steps, reply(`s${steps.length + 1}`, "done")];
  });

describe("a durable run restarted at any point (property)", () => {
  it("ends like the uninterrupted run, starts no side effect twice, and asks nothing recorded again", async () => {
    let counter = 0;
    await fc.assert(
      fc.asyncProperty(plans, fc.nat(), async (steps, point) => {
        counter++;
        // Reflection asks for a new plan: an abort would race the steps still starting, in any replay.
        const reference = durableRun(`prop-ref-${counter}`, steps, 5, undefined, "new_plan");
        const expected = await reference.execute();
        const total = reference.engine.stored.size;
        const run = durableRun(`prop-${counter}`, steps, 5, undefined, "new_plan");
        await run.crash(1 + (point % total));
        const result = await run.execute();
        const events = await run.log();
        expect(invariantProblems(events)).toEqual([]);
        // No side effect was started twice: each send step's message went out at most once.
        const sent = run.calls.filter((call) => call.tool === "send").map((call) => call.arg);
        expect(new Set(sent).size).toBe(sent.length);
        // Each attempt is logged once; a send has one attempt at most.
        const starts = events.flatMap((event) =>
          event.type === "step-start" ? [`${event.stepId}@${event.attempt}`] : [],
        );
        expect(new Set(starts).size).toBe(starts.length);
        for (const step of steps)
          if (step.type === "tool" && step.name === "send")
            expect(starts.filter((start) => start.startsWith(`${step.id}@`)).length).toBeLessThanOrEqual(1);
        // Only what the engine had not stored ran again: the plan, the model, the tools.
        expect(run.planner.log.requests).toHaveLength(stepNames(run.engine, "plan").length);
        expect(run.model.requests).toHaveLength(stepNames(run.engine, "model:").length);
        // The first read started while the plan streamed.
        const types = events.map((event) => `${event.type}:${"stepId" in event ? event.stepId : ""}`);
        if (steps[0]?.type === "tool" && steps[0].name === "lookup")
          expect(types.indexOf("step-start:s1")).toBeLessThan(types.indexOf("plan-end:"));
        const unknown = events.some((event) => event.type === "step-error" && event.error.code === "outcome-unknown");
        // The end of the uninterrupted run, unless a cut-off side effect changed it; a failed run's reply
        // describes steps cut short when it ended, which depends on timing.
        if (!unknown) {
          expect(result.reason).toBe(expected.reason);
          if (expected.reason === "completed") expect(result.reply).toBe(expected.reply);
          expect(outcomes(events)).toEqual(outcomes(await reference.log()));
        }
        // A replay of the ended run calls nothing, ends the same way and adds nothing to the closed log.
        const calls = run.engine.calls.length;
        expect((await run.execute()).reason).toBe(result.reason);
        expect(run.engine.calls).toHaveLength(calls);
        expect(await run.log()).toEqual(events);
      }),
      { numRuns: 15 },
    );
  }, 60_000);
});

/** How many calls of each purpose a model had. */
function purposes(requests: readonly PlanModelRequest[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const request of requests) counted[request.purpose ?? "none"] = (counted[request.purpose ?? "none"] ?? 0) + 1;
  return counted;
}

/** A plan whose second read fails: reflection asks for a new plan, which reads once more and replies. */
const failingPlan = [
  tool("s1", "lookup", { q: "a" }),
  tool("s2", "lookup", { q: "down" }, { dependsOn: ["s1"] }),
  reply("s3", "{{s2.value}}"),
];
const newPlan = (): PlanStep[] => [tool("s4", "lookup", { q: "c" }), reply("s5", "{{s1.value}} {{s4.value}}")];

describe("a durable run restarted while it reflects or re-plans", () => {
  for (const [point, crashOn, asked] of [
    ["during reflection", (name: string) => name.startsWith("model:reflect:"), { reflect: 2, replans: 1 }],
    ["during a re-plan", (name: string) => name.startsWith("replan-"), { reflect: 1, replans: 2 }],
    ["mid tool of the new plan", (name: string) => name.startsWith("s4#"), { reflect: 1, replans: 1 }],
  ] as const) {
    it(`${point}: ends as the uninterrupted run and asks again only for what was not stored`, async () => {
      const reference = durableRun(`reflect-ref-${point}`, failingPlan, 5, undefined, "new_plan", { replan: newPlan });
      const expected = await reference.execute();
      expect(expected).toMatchObject({ reason: "completed", reply: "a! c!" });

      const run = durableRun(`reflect-${point}`, failingPlan, 5, undefined, "new_plan", { replan: newPlan });
      await run.crash(crashOn);
      const result = await run.execute();
      expect({ ...result, runId: "" }).toEqual({ ...expected, runId: "" });
      expect(purposes(run.model.requests)).toMatchObject({ reflect: asked.reflect });
      expect(run.planner.log.replans).toHaveLength(asked.replans);
      expect(run.planner.log.requests).toHaveLength(1);
      // Each stored read ran once; only the read cut off before it was stored ran again.
      const count = (calls: { arg: string }[], arg: string) => calls.filter((call) => call.arg === arg).length;
      expect(count(run.calls, "a")).toBe(1);
      expect(count(run.calls, "down")).toBe(count(reference.calls, "down"));
      expect(count(run.calls, "c")).toBe(point === "mid tool of the new plan" ? 2 : 1);
      const events = await run.log();
      expect(invariantProblems(events)).toEqual([]);
      expect(outcomes(events)).toEqual(outcomes(await reference.log()));
      expect(events.filter((event) => event.type === "reflection")).toHaveLength(1);
      expect(events.filter((event) => event.type === "replan")).toHaveLength(1);
    });
  }
});

/**
 * A model whose integrated answer streams in two pieces; with `stall`, in
 * its first call the second piece never comes (the process dies while the
 * answer is being written), and later calls split the text elsewhere.
 */
function answeringModel(stall: boolean): PlanModel & { requests: PlanModelRequest[] } {
  const requests: PlanModelRequest[] = [];
  let answers = 0;
  return {
    requests,
    async *stream(request): AsyncGenerator<PlanModelPart> {
      requests.push(request);
      if (request.purpose === "reflect") {
        yield { type: "text", text: '{"action":"abort","reason":"unsure"}' };
      } else if (!stall) {
        yield { type: "text", text: "The answer " };
        yield { type: "text", text: "is 42." };
      } else if (++answers === 1) {
        yield { type: "text", text: "The answer " };
        await new Promise<never>(() => undefined);
      } else {
        // Asked again, the model splits the same text differently.
        yield { type: "text", text: "The " };
        yield { type: "text", text: "answer is 42." };
      }
      yield { type: "finish", reason: "stop", usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

describe("a durable run's integrated answer", () => {
  it("streams to the session log while the model writes it, and a restart mid reply ends as the uninterrupted run", async () => {
    const steps = [tool("s1", "lookup", { q: "a" }), reply("s2", "{{s1.missing}}")];
    const reference = durableRun("reply-ref", steps, 5, undefined, "abort", { model: answeringModel(false) });
    await reference.execute();
    const expectedEvents = await reference.log();
    const expectedReply = expectedEvents.find((event) => event.type === "reply");
    expect(expectedReply).toMatchObject({ text: "The answer is 42.", source: "model" });

    const run = durableRun("reply", steps, 5, undefined, "abort", { model: answeringModel(true) });
    const first = run.execute();
    void first.catch(() => undefined);
    // The first piece is in the log while the model still writes the answer.
    await until(() => run.model.requests.some((request) => request.purpose === "integrate"));
    await until(() => run.sent.some((event) => event.type === "reply-delta"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.sent.filter((event) => event.type === "reply-delta")).toEqual([
      expect.objectContaining({ delta: "The answer" }),
    ]);
    expect(run.sent.some((event) => event.type === "reply")).toBe(false);

    // The process dies mid reply; the next execution asks for the answer again (it was not stored), nothing else.
    const result = await run.execute();
    expect(result).toMatchObject({ reply: "The answer is 42." });
    expect(purposes(run.model.requests)).toEqual({ ...purposes(reference.model.requests), integrate: 2 });
    expect(run.calls).toEqual([{ tool: "lookup", arg: "a" }]);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    const deltas = events.flatMap((event) => (event.type === "reply-delta" ? [event.delta] : []));
    expect(deltas.join("")).toBe("The answer is 42.");
    expect(outcomes(events)).toEqual(outcomes(expectedEvents));
    // From the answer on, the same events in the same order (before it, a read and the streaming plan may interleave).
    const tail = (list: RuntimeEvent[]) =>
      list
        .slice(list.findIndex((event) => event.type === "reply-delta"))
        .map((event) => (event.type === "reply-delta" ? event.delta : event.type));
    expect(tail(events)).toEqual(tail(expectedEvents));
  });
});

describe("a durable run restarted around an approval", () => {
  const steps = [
    tool("s1", "lookup", { q: "a" }),
    tool("s2", "send", { to: "{{s1.value}}" }),
    reply("s3", "sent to {{s2.sent}}"),
  ];
  const policy = { send: { approval: "plan" as const } };
  const decisions = { decisions: [{ stepId: "s2", approved: true }] };

  it("while waiting: the next execution waits again, and the decision ends it as the uninterrupted run", async () => {
    const reference = durableRun("approval-ref", steps, 5, undefined, "abort", { policy });
    const expectedRun = reference.execute();
    await until(() => reference.engine.waiting);
    reference.engine.send(decisions);
    const expected = await expectedRun;
    expect(expected).toMatchObject({ reason: "completed", reply: "sent to a!" });

    const run = durableRun("approval-wait", steps, 5, undefined, "abort", { policy });
    void run.execute();
    await until(() => run.engine.waiting);
    // The process dies while it waits: a new execution replays to the same wait from stored steps.
    const resumed = run.execute();
    await until(() => run.engine.waiting);
    run.engine.send(decisions);
    expect({ ...(await resumed), runId: "" }).toEqual({ ...expected, runId: "" });
    expect(run.calls).toEqual([
      { tool: "lookup", arg: "a" },
      { tool: "send", arg: "a!" },
    ]);
    expect(run.planner.log.requests).toHaveLength(1);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    expect(outcomes(events)).toEqual(outcomes(await reference.log()));
    expect(events.filter((event) => event.type === "approval-request")).toHaveLength(1);
    expect(events.filter((event) => event.type === "approval-decision")).toHaveLength(1);
  });

  it("during the approved send: the send is not started again, the step ends outcome-unknown", async () => {
    const run = durableRun("approval-send", steps, 5, undefined, "abort", { policy });
    run.engine.crashOn = (name) => name.startsWith("s2#") && !name.endsWith(":started");
    void run.execute();
    await until(() => run.engine.waiting);
    run.engine.send(decisions);
    await until(() => run.engine.crashAfter !== Number.POSITIVE_INFINITY && run.engine.running === 0);
    run.engine.crashOn = undefined;
    run.engine.crashAfter = Number.POSITIVE_INFINITY;
    const result = await run.execute();
    expect(result.reason).toBe("failed");
    expect(run.calls.filter((call) => call.tool === "send")).toHaveLength(1);
    const events = await run.log();
    expect(invariantProblems(events)).toEqual([]);
    expect(outcomes(events)).toMatchObject({ s1: { end: { value: "a!" } }, s2: { error: "outcome-unknown" } });
    // The stored decision was not asked for again.
    expect(run.engine.waits).toHaveLength(1);
  });
});
