/**
 * The coordinator on its own: `RunExecution` driven directly (not through
 * `AgentRuntime`) with a scripted planner, a fake clock and test tools —
 * its phases from planning to the end, how each kind of run ends, and
 * `abort()` asking each part to stop.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import { createScriptedModel } from "../../../src/model/create-scripted-model.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import type { PlannerEvent } from "../../../src/planner/planner-event.ts";
import type { MemoryEntry } from "../../../src/runtime/memory-store.ts";
import type { RunConfig } from "../../../src/runtime/run/run-core.ts";
import { RunExecution } from "../../../src/runtime/run/run-execution.ts";
import { deferred, invariantProblems, reply, tool } from "../fake-planner.ts";
import { createFakeClock } from "./fake-clock.ts";
import {
  createPlanPlanner,
  createRunConfig,
  createScriptedPlanner,
  createTools,
  deltasOf,
  lastOf,
  planEvents,
  settle,
  type ToolBehaviour,
} from "./phase-fixtures.ts";

/** A run over the given configuration, recording its events; `emit` may be replaced to watch them as they come. */
function createRun(overrides: Partial<RunConfig> = {}, watch?: (event: RuntimeEvent) => void) {
  const events: RuntimeEvent[] = [];
  const config = createRunConfig(overrides);
  const execution = new RunExecution(config, { runId: "r1", query: "q", history: "", context: {} }, (event) => {
    events.push(event);
    watch?.(event);
  });
  const types = (): string[] => events.map((event) => event.type);
  const ended = (): boolean => events.some((event) => event.type === "run-end");
  return { execution, events, config, types, ended };
}

/** A tool that answers only when the test says so, and fails when its signal fires. */
function heldTool() {
  const held = deferred<unknown>();
  const behaviour: ToolBehaviour = (_args, signal) =>
    new Promise((resolve, reject) => {
      void held.promise.then(resolve);
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  return { behaviour, release: held.resolve };
}

/** A planner that streams the steps, then waits for `gate` before it ends cleanly. */
function gatedPlanner(steps: PlanStep[], gate: Promise<unknown>) {
  return createScriptedPlanner(async function* () {
    const [done, ...streamed] = planEvents(steps).reverse();
    yield* streamed.reverse();
    await gate;
    if (done !== undefined) yield done;
  });
}

/** An event's type, with its step's id for the events of one step. */
const stepIdOf = (event: RuntimeEvent): string => {
  if (event.type === "step-planned") return `${event.type} ${event.step.id}`;
  return event.type.startsWith("step-") && "stepId" in event ? `${event.type} ${event.stepId}` : event.type;
};

describe("RunExecution", () => {
  it("starts read-only steps while planning, side effects once the plan ended, the reply last, then ends completed", async () => {
    const clock = createFakeClock(1_000);
    const plan = deferred();
    const { registry, calls } = createTools({
      pay: (args) => {
        clock.advance(25);
        return { paid: args.amount };
      },
    });
    const planner = gatedPlanner(
      [
        tool("s1", "read", { temp: 21 }),
        tool("s2", "pay", { amount: 5 }),
        reply("s3", "It is {{s1.temp}}; paid {{s2.paid}}."),
      ],
      plan.promise,
    );
    const { execution, events, types, ended } = createRun({
      planner,
      registry,
      clock,
      budget: { deadlineMs: 60_000 },
    });
    let resolved = false;
    const running = execution.execute(undefined).then(() => (resolved = true));
    await settle();
    // Planning: the read ran at once, the payment waits for the plan to end.
    expect(calls.map((call) => call.tool)).toEqual(["read"]);
    expect(types()).not.toContain("plan-end");
    expect(ended()).toBe(false);
    // Nothing runs, but what the run waits for is the planner, not a person.
    expect(execution.waitingForApproval).toBe(false);
    plan.resolve();
    await running;
    expect(resolved).toBe(true);
    const order = events.map(stepIdOf);
    const at = (name: string): number => {
      expect(order).toContain(name);
      return order.indexOf(name);
    };
    expect(order.slice(0, 3)).toEqual(["plan-start", "step-planned s1", "step-start s1"]);
    expect(at("step-start s1")).toBeLessThan(at("step-planned s2"));
    expect(at("step-start s2")).toBeGreaterThan(at("plan-end"));
    expect(at("step-start s3")).toBeGreaterThan(Math.max(at("step-end s1"), at("step-end s2")));
    expect(order.slice(at("step-end s3"))).toEqual(["step-end s3", "reply-delta", "reply", "run-end"]);
    expect(lastOf(events, "reply")).toMatchObject({ text: "It is 21; paid 5.", source: "step", stepId: "s3" });
    expect(lastOf(events, "run-end")).toMatchObject({
      reason: "completed",
      durationMs: 25,
      usage: { toolCalls: 2 },
    });
    expect(Object.hasOwn(lastOf(events, "run-end"), "error")).toBe(false);
    expect(events.every((event) => event.runId === "r1")).toBe(true);
    expect(invariantProblems(events)).toEqual([]);
    expect(execution.state).toMatchObject({
      status: "ended",
      reason: "completed",
      reply: { text: "It is 21; paid 5." },
    });
    expect(execution.signal.aborted).toBe(true);
    // The deadline's timer went with the run.
    expect(clock.timers).toBe(0);
  });

  it("re-plans a failure while nothing runs, then goes back to executing the patch", async () => {
    const patch = deferred<PlanStep[]>();
    const { registry } = createTools({
      lookup: () => {
        throw new Error("not found");
      },
    });
    const planner = createScriptedPlanner(
      async function* () {
        yield* planEvents([tool("s1", "lookup"), reply("s2", "Found {{s1}}")]);
      },
      { replan: () => patch.promise },
    );
    const { execution, events, types, ended } = createRun({ planner, registry, maxReplans: 1 });
    const running = execution.execute(undefined);
    await settle();
    // Re-planning: the call is out and nothing else is decided until it answers.
    expect(types().at(-1)).toBe("plan-start");
    expect(lastOf(events, "plan-start")).toMatchObject({ kind: "replan", attempt: 1 });
    expect(planner.replans[0]?.failed.map((failed) => failed.step.id)).toEqual(["s1"]);
    expect(ended()).toBe(false);
    expect(execution.waitingForApproval).toBe(false);
    patch.resolve([tool("s3", "read", { q: "other" }), reply("s4", "Found {{s3.q}} instead")]);
    await running;
    expect(lastOf(events, "replan")).toMatchObject({ failed: ["s1"], replaced: ["s2"], added: ["s3", "s4"] });
    expect(lastOf(events, "reply")).toMatchObject({ text: "Found other instead", stepId: "s4" });
    expect(lastOf(events, "run-end")).toMatchObject({ reason: "completed", usage: { replans: 1 } });
    expect(invariantProblems(events)).toEqual([]);
  });

  it("ends failed with the step's error, and answers with the template, when no re-plan can answer a failure", async () => {
    const { registry } = createTools({
      pay: () => {
        throw new Error("card declined");
      },
    });
    const planner = createPlanPlanner([tool("s1", "pay"), reply("s2", "Paid: {{s1}}")]);
    const { execution, events } = createRun({ planner, registry });
    await execution.execute(undefined);
    expect(lastOf(events, "step-skipped")).toMatchObject({ stepId: "s2", code: "dependency-failed" });
    expect(lastOf(events, "reply")).toMatchObject({
      text: "Results:\n- s1 (pay) failed: card declined",
      source: "template",
    });
    expect(lastOf(events, "run-end")).toMatchObject({
      reason: "failed",
      error: { code: "tool-error", message: "card declined" },
    });
    expect(invariantProblems(events)).toEqual([]);
  });

  it("ends with budget, and the error behind it, when a budget refused a step", async () => {
    const planner = createPlanPlanner([tool("s1", "read", { n: 1 }), tool("s2", "read", { n: 2 })]);
    const { execution, events } = createRun({ planner, budget: { steps: 1 } });
    await execution.execute(undefined);
    expect(lastOf(events, "step-skipped")).toMatchObject({ stepId: "s2", code: "budget" });
    expect(lastOf(events, "run-end")).toMatchObject({
      reason: "budget",
      error: { code: "budget-exceeded", message: 'Step "s2" was skipped (budget): The step budget of 1 is spent' },
    });
  });

  it("ends failed with the planner's error, saying so in the answer", async () => {
    const planner = createScriptedPlanner(async function* (): AsyncGenerator<PlannerEvent> {
      yield* [];
      throw new Error("The planner's model is down");
    });
    const { execution, events } = createRun({ planner });
    await execution.execute(undefined);
    const error = { code: "model-error", message: "The planner's model is down" };
    expect(lastOf(events, "plan-end")).toMatchObject({ finishReason: "error", error });
    expect(lastOf(events, "reply")).toMatchObject({ text: "No answer: The planner's model is down" });
    expect(lastOf(events, "run-end")).toMatchObject({ reason: "failed", error });
  });

  it("skips steps that wait for each other, and what needed a step that never came, once the plan ended", async () => {
    const cycle = createPlanPlanner([tool("s1", "read", { x: "{{s2}}" }), tool("s2", "read", { x: "{{s1}}" })]);
    const looped = createRun({ planner: cycle });
    await looped.execution.execute(undefined);
    expect(looped.events.filter((event) => event.type === "step-skipped")).toMatchObject([
      { stepId: "s1", code: "cycle" },
      { stepId: "s2", code: "cycle" },
    ]);
    expect(lastOf(looped.events, "run-end")).toMatchObject({ reason: "failed", error: { code: "cycle" } });
    expect(invariantProblems(looped.events)).toEqual([]);

    const missing = createRun({ planner: createPlanPlanner([tool("s1", "read", { x: "{{s9.value}}" })]) });
    await missing.execution.execute(undefined);
    expect(lastOf(missing.events, "step-skipped")).toMatchObject({ stepId: "s1", code: "unknown-dependency" });
    expect(lastOf(missing.events, "run-end")).toMatchObject({ reason: "failed", error: { code: "unknown-reference" } });
  });

  it("withholds the side effects of a plan that did not end cleanly, and the reply that would report them", async () => {
    const planner = createScriptedPlanner(async function* () {
      yield* planEvents([tool("s1", "read", { q: 1 }), tool("s2", "pay", { amount: 5 }), reply("s3", "Paid.")], {
        clean: false,
        finishReason: "length",
      });
    });
    const { registry, calls } = createTools();
    const { execution, events } = createRun({ planner, registry });
    await execution.execute(undefined);
    expect(calls.map((call) => call.tool)).toEqual(["read"]);
    expect(events.filter((event) => event.type === "step-skipped")).toMatchObject([
      { stepId: "s2", code: "unsafe-plan" },
      { stepId: "s3", code: "unsafe-plan", reason: expect.stringContaining("1 side-effecting step did not run") },
    ]);
    expect(lastOf(events, "reply")).toMatchObject({ source: "template" });
    expect(lastOf(events, "run-end")).toMatchObject({ reason: "failed", error: { code: "invalid-step" } });
  });

  it("asks its model through the run's guard: counted, and refused once the budget is spent", async () => {
    const model = createScriptedModel({ responses: { integrate: ["It is done."] } });
    const planner = createPlanPlanner([tool("s1", "read", { q: 1 })]);
    const answered = createRun({ planner, model });
    await answered.execution.execute(undefined);
    expect(lastOf(answered.events, "reply")).toMatchObject({ text: "It is done.", source: "model" });
    expect(lastOf(answered.events, "run-end")).toMatchObject({ reason: "completed", usage: { modelCalls: 1 } });

    const spent = createRun({
      planner: createPlanPlanner([tool("s1", "read", { q: 1 })]),
      model,
      budget: { modelCalls: 0 },
    });
    await spent.execution.execute(undefined);
    expect(model.calls).toBe(1);
    expect(lastOf(spent.events, "reply")).toMatchObject({ source: "template" });
    expect(lastOf(spent.events, "run-end")).toMatchObject({ reason: "budget" });
  });

  it("writes the run to memory before run-end, with how it ended", async () => {
    const written: MemoryEntry[] = [];
    let endedWhenWritten: boolean | undefined;
    const memory = {
      read: () => [],
      write: (entry: MemoryEntry) => {
        endedWhenWritten = run.ended();
        written.push(entry);
      },
    };
    const run = createRun({ planner: createPlanPlanner([tool("s1", "read", { q: 1 }), reply("s2", "ok")]), memory });
    await run.execution.execute(undefined);
    expect(written.map((entry) => entry.kind)).toEqual(["result"]);
    expect(written[0]?.content).toMatchObject({ reason: "completed", reply: "ok" });
    expect(endedWhenWritten).toBe(false);
  });

  it("waits for a person while nothing else can run, and goes on once the step is approved", async () => {
    const planner = createPlanPlanner([tool("s1", "pay", { amount: 5 }), reply("s2", "Paid {{s1.amount}}")]);
    const { execution, events, ended } = createRun({ planner, policy: { pay: { approval: "plan" } } });
    const running = execution.execute(undefined);
    await settle();
    expect(lastOf(events, "approval-request")).toMatchObject({ source: "plan", steps: [{ stepId: "s1" }] });
    expect(execution.waitingForApproval).toBe(true);
    expect(ended()).toBe(false);
    execution.approve({ stepId: "s1", approved: true });
    expect(execution.waitingForApproval).toBe(false);
    await running;
    expect(lastOf(events, "reply")).toMatchObject({ text: "Paid 5" });
    expect(lastOf(events, "run-end").reason).toBe("completed");
    expect(() => execution.approve({ stepId: "s1", approved: true })).toThrow(
      expect.objectContaining({
        code: "invalid-approval",
        message: 'Run "r1" already ended; no step waits for approval',
      }),
    );
  });

  it("does not count a re-plan that is out as waiting for a person", async () => {
    const patch = deferred<PlanStep[]>();
    const { registry } = createTools({
      lookup: () => {
        throw new Error("not found");
      },
    });
    const planner = createScriptedPlanner(
      async function* () {
        yield* planEvents([tool("s1", "lookup"), tool("s2", "pay", { amount: 5 }), reply("s3", "ok")]);
      },
      { replan: () => patch.promise },
    );
    const { execution, events } = createRun({
      planner,
      registry,
      maxReplans: 1,
      policy: { pay: { approval: "plan" } },
    });
    const running = execution.execute(undefined);
    await settle();
    expect(lastOf(events, "plan-start")).toMatchObject({ kind: "replan" });
    expect(lastOf(events, "approval-request").steps.map((step) => step.stepId)).toEqual(["s2"]);
    expect(execution.waitingForApproval).toBe(false);
    patch.resolve([]);
    await settle();
    expect(execution.waitingForApproval).toBe(true);
    execution.approve({ stepId: "s2", approved: true });
    await running;
    expect(lastOf(events, "run-end")).toMatchObject({ reason: "failed", error: { message: "not found" } });
  });

  it("denies what is still undecided when the approvals expire: a denial is an answer, not a failure", async () => {
    const planner = createPlanPlanner([tool("s1", "pay", { amount: 5 }), reply("s2", "Paid {{s1.amount}}")]);
    const { execution, events } = createRun({ planner, policy: { pay: { approval: "plan" } } });
    const running = execution.execute(undefined);
    await settle();
    execution.expireApprovals();
    await running;
    expect(lastOf(events, "approval-decision")).toMatchObject({ stepId: "s1", approved: false, by: "timeout" });
    expect(lastOf(events, "reply")).toMatchObject({ source: "template" });
    expect(lastOf(events, "reply").text).toContain("- s1 (pay) was not done: denied (No decision within 0 ms)");
    expect(lastOf(events, "run-end")).toMatchObject({ reason: "completed" });
  });

  it("abort asks each part to stop: the attempt, the pending and waiting steps, the plan, the planner and the approvals", async () => {
    const clock = createFakeClock();
    const held = heldTool();
    const { registry, calls } = createTools({ slow: held.behaviour }, ["slow"]);
    const planner = createScriptedPlanner(async function* () {
      yield { type: "step", step: tool("s1", "slow"), index: 0 };
      yield { type: "step", step: tool("s2", "pay", { amount: 5 }), index: 1 };
      yield { type: "turn-end", turn: 1, clean: true, finishReason: "tool-calls" };
      yield { type: "step", step: tool("s3", "pay", { amount: 6 }), index: 2 };
      await new Promise(() => undefined);
    });
    const { execution, events, types } = createRun({
      planner,
      registry,
      clock,
      policy: { pay: { approval: "step" } },
      approvalTimeoutMs: 100,
    });
    const running = execution.execute(undefined);
    await settle();
    expect(types()).toContain("approval-request");
    // A step waits for a person, but another still runs.
    expect(execution.waitingForApproval).toBe(false);
    const before = events.length;
    execution.abort("aborted", "Stopped by the user");
    // Everything happened before abort returned.
    expect(events.slice(before).map(stepIdOf)).toEqual([
      "step-error s1",
      "step-skipped s2",
      "step-skipped s3",
      "plan-end",
      "run-end",
    ]);
    const error = { code: "aborted", message: "Stopped by the user" };
    expect(events.slice(before)).toMatchObject([
      { final: true, error },
      { code: "aborted", reason: "Stopped by the user" },
      { code: "aborted" },
      { clean: false, finishReason: "error", error },
      { reason: "aborted", error },
    ]);
    // An abort owes no answer.
    expect(types()).not.toContain("reply");
    expect(execution.signal.reason).toMatchObject(error);
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(execution.waitingForApproval).toBe(false);
    await running;
    await settle();
    expect(planner.closed).toBe(true);
    // The approval request's timer is gone, and nothing that ends late reaches the run.
    expect(clock.timers).toBe(0);
    clock.advance(1_000);
    held.release({ late: true });
    execution.abort("failed", "again");
    await settle();
    expect(events.length).toBe(before + 5);
    expect(invariantProblems(events)).toEqual([]);
  });

  it("ends at the deadline on the run's clock, counting the time spent before, and still answers", async () => {
    const clock = createFakeClock();
    const held = heldTool();
    const { registry } = createTools({ slow: held.behaviour }, ["slow"]);
    const planner = createPlanPlanner([tool("s1", "slow"), reply("s2", "Got {{s1}}")]);
    const { execution, events, ended } = createRun({ planner, registry, clock, budget: { deadlineMs: 500 } });
    const running = execution.execute(undefined, 200);
    await settle();
    clock.advance(299);
    await settle();
    expect(ended()).toBe(false);
    clock.advance(1);
    await running;
    const error = { code: "timeout", message: "The run passed its deadline of 500 ms" };
    expect(lastOf(events, "step-error")).toMatchObject({ stepId: "s1", final: true, error });
    expect(lastOf(events, "reply")).toMatchObject({ source: "template" });
    expect(lastOf(events, "run-end")).toMatchObject({ reason: "deadline", error, durationMs: 300 });
    expect(execution.signal.reason).toMatchObject(error);
    expect(invariantProblems(events)).toEqual([]);
  });

  it("completes a reply that already streams from what there is when the run stops", async () => {
    const clock = createFakeClock();
    const held = heldTool();
    const { registry } = createTools({ slow: held.behaviour }, ["slow"]);
    const planner = createPlanPlanner([tool("s1", "slow"), reply("s2", "Weather: {{s1}}.")]);
    const { execution, events } = createRun({
      planner,
      registry,
      clock,
      replyStreaming: "early",
      budget: { deadlineMs: 100 },
    });
    const running = execution.execute(undefined);
    await settle();
    expect(deltasOf(events)).toBe("Weather: ");
    clock.advance(100);
    await running;
    expect(lastOf(events, "reply")).toEqual(
      expect.objectContaining({ text: 'Weather: [step "s1" failed].', source: "step", stepId: "s2" }),
    );
    expect(deltasOf(events)).toBe(lastOf(events, "reply").text);
  });

  it("ends as aborted when the caller's signal fires, and at once when it fired before the start", async () => {
    const held = heldTool();
    const { registry } = createTools({ slow: held.behaviour }, ["slow"]);
    const controller = new AbortController();
    const live = createRun({ planner: createPlanPlanner([tool("s1", "slow")]), registry });
    const running = live.execution.execute(controller.signal);
    await settle();
    controller.abort();
    await running;
    expect(lastOf(live.events, "run-end")).toMatchObject({
      reason: "aborted",
      error: { code: "aborted", message: "The run was aborted" },
    });

    const planner = createPlanPlanner([tool("s1", "read")]);
    const early = createRun({ planner });
    await early.execution.execute(AbortSignal.abort());
    // plan-end and run-end always come; nothing else does.
    const error = { code: "aborted", message: "The run was aborted before it started" };
    expect(early.types()).toEqual(["plan-end", "run-end"]);
    expect(early.events[0]).toMatchObject({ clean: false, steps: 0, error });
    expect(lastOf(early.events, "run-end")).toMatchObject({ reason: "aborted", error });
    expect(planner.requests).toHaveLength(0);
  });

  it("stops the run as failed on a reflector's abort, and still answers", async () => {
    const { registry } = createTools({
      pay: () => {
        throw new Error("fraud suspected");
      },
    });
    const { execution, events } = createRun({
      planner: createPlanPlanner([tool("s1", "pay")]),
      registry,
      reflector: { reflect: () => ({ action: "abort", reason: "do not retry payments" }) },
    });
    await execution.execute(undefined);
    expect(lastOf(events, "reply")).toMatchObject({ source: "template" });
    expect(lastOf(events, "run-end")).toMatchObject({
      reason: "failed",
      error: {
        code: "aborted",
        message: 'A reflector stopped the run after step "s1" failed: do not retry payments',
      },
    });
    expect(invariantProblems(events)).toEqual([]);
  });

  it("ends the run as failed when a part throws unexpectedly, instead of leaving it hanging", async () => {
    let thrown = false;
    const { execution, events } = createRun({ planner: createPlanPlanner([tool("s1", "read")]) }, (event) => {
      if (event.type === "plan-start" && !thrown) {
        thrown = true;
        throw new Error("the consumer broke");
      }
    });
    await execution.execute(undefined);
    expect(lastOf(events, "run-end")).toMatchObject({
      reason: "failed",
      error: { code: "aborted", message: "Internal error: the consumer broke" },
    });
    expect(events.filter((event) => event.type === "run-end")).toHaveLength(1);
  });

  it("emits exactly one run-end, last, with every step ended once, whatever order the parts finish in", async () => {
    const stepSpec = fc.record({
      tool: fc.constantFrom("read", "pay"),
      refs: fc.array(fc.nat(5), { maxLength: 2 }),
      fails: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepSpec, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("clean", "unclean", "throw"),
        fc.array(fc.nat(20), { minLength: 12, maxLength: 12 }),
        fc.option(
          fc.record({
            at: fc.nat(6),
            reason: fc.constantFrom("aborted", "deadline", "failed") as fc.Arbitrary<"aborted" | "deadline" | "failed">,
          }),
        ),
        fc.nat(1),
        async (specs, ending, order, stop, maxReplans) => {
          const pending = new Map<string, { fails: boolean; settle: (fail: boolean) => void }>();
          const behaviour: ToolBehaviour = (args) =>
            new Promise((resolve, reject) => {
              const id = String(args.id);
              pending.set(id, {
                fails: args.fails === true,
                settle: (fail) => (fail ? reject(new Error(`${id} failed`)) : resolve({ id })),
              });
            });
          const { registry } = createTools({ read: behaviour, pay: behaviour });
          const steps: PlanStep[] = specs.map((spec, index) => {
            const refs = [...new Set(spec.refs.filter((ref) => ref < index))].map((ref) => `{{s${ref + 1}.id}}`);
            return tool(`s${index + 1}`, spec.tool, { id: `s${index + 1}`, fails: spec.fails, refs });
          });
          steps.push(reply(`s${steps.length + 1}`, "Done: {{s1.id}}"));
          const planner = createScriptedPlanner(
            async function* () {
              yield* planEvents(steps, { clean: ending === "clean" }).slice(0, ending === "throw" ? -1 : undefined);
              if (ending === "throw") throw new Error("planner broke");
            },
            { replan: () => [tool("p1", "read", { id: "p1", fails: false }), reply("p2", "Patched")] },
          );
          const { execution, events, ended } = createRun({ planner, registry, maxReplans });
          const running = execution.execute(undefined);
          for (let turn = 0; turn < 40 && !ended(); turn++) {
            await settle();
            if (stop !== null && turn === stop.at) execution.abort(stop.reason, "stopped");
            const waiting = [...pending.keys()];
            if (waiting.length === 0) continue;
            const id = waiting[(order[turn % order.length] ?? 0) % waiting.length] as string;
            const call = pending.get(id);
            pending.delete(id);
            call?.settle(call.fails);
          }
          await settle();
          expect(ended()).toBe(true);
          await running;
          expect(invariantProblems(events)).toEqual([]);
          expect(events.filter((event) => event.type === "plan-end")).toHaveLength(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
