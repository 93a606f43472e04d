/**
 * Side effects the runtime must not repeat, widen or run from a damaged
 * plan: a reflector's retry, arguments it changes, a plan cut at
 * `maxSteps`, events that share objects with the run, and a denial that is
 * an answer rather than a failure.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import { createScriptedModel } from "../../src/model/create-scripted-model.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import type { Reflection } from "../../src/planner/reflector.ts";
import { AgentRuntime, type RunHandle } from "../../src/runtime/agent-runtime.ts";
import type { ApprovalPolicy } from "../../src/runtime/approval-policy.ts";
import { createModelReflector } from "../../src/runtime/create-model-reflector.ts";
import { canonicalJson } from "../../src/shared/canonical-json.ts";
import { type ToolDefinition, ToolRegistry } from "../../src/tools/tool-registry.ts";
import { createEchoModel, createFakePlanner, invariantProblems, reply, tool } from "./fake-planner.ts";

const quiet = {
  memory: false,
  integrate: "template",
  backoff: { initialMs: 1, jitter: 0 },
  sleep: async () => undefined,
} as const;

/** Every call a tool received, by tool. */
type CallLog = { name: string; args: Record<string, unknown> }[];

/**
 * A tool that logs its calls and fails the first `failures` of them.
 *
 * @param name - its name.
 * @param log - where calls go.
 * @param options - annotations, failures, a message.
 * @returns the definition.
 */
function loggedTool(
  name: string,
  log: CallLog,
  options: { annotations?: ToolDefinition["annotations"]; failures?: number; message?: string; hang?: boolean } = {},
): ToolDefinition {
  let calls = 0;
  const definition: ToolDefinition = {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object" },
    execute: (args) => {
      log.push({ name, args: structuredClone(args) });
      calls++;
      if (options.hang === true && calls <= (options.failures ?? 0)) return new Promise(() => undefined);
      if (calls <= (options.failures ?? 0)) throw new Error(options.message ?? `${name} failed`);
      return { ok: true, call: calls };
    },
  };
  if (options.annotations !== undefined) definition.annotations = options.annotations;
  return definition;
}

/** Reads a run's events until it waits only for decisions (or ended). */
async function untilWaiting(run: RunHandle): Promise<void> {
  const iterator = run[Symbol.asyncIterator]();
  while (!run.waitingForApproval && run.state.status !== "ended") {
    const next = await iterator.next();
    if (next.done === true) break;
  }
}

const retryReflector = (args?: Record<string, unknown>) => ({
  reflect: (): Reflection =>
    args === undefined
      ? { action: "retry", reason: "try again" }
      : { action: "retry", reason: "try again", arguments: args },
});

describe("a reflector's retry", () => {
  it("never runs a tool that may have acted again: the model reflector's retry of a failed charge counts as new_plan", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(
      loggedTool("charge", log, { failures: 1, message: "gateway 502 after charging" }),
    );
    const planner = createFakePlanner({
      steps: [tool("s1", "charge", { amount: 50 }), reply("s2", "charged {{s1.ok}}")],
    });
    const model = createEchoModel(() => '{"action":"retry","reason":"transient gateway error"}');
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      model,
      reflector: createModelReflector(),
      retries: 3,
      maxReplans: 0,
    }).run("charge me");
    const state = await run.done;
    expect(log).toHaveLength(1);
    const reflection = run.events.find((event) => event.type === "reflection");
    expect(reflection).toMatchObject({ action: "retry", refused: expect.stringContaining("may have acted") });
    expect(state.reflections[0]?.refused).toContain("neither read-only nor idempotent");
    expect(state.steps[0]).toMatchObject({ status: "failed" });
    expect(run.events.some((event) => event.type === "step-retry")).toBe(false);
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("does not re-send a mail whose call timed out and landed late, even with changed arguments", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("send_mail", log, { failures: 1, hang: true }));
    const planner = createFakePlanner({ steps: [tool("s1", "send_mail", { to: "ann" }), reply("s2", "sent")] });
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      timeoutMs: 20,
      reflector: retryReflector({ to: "ann@example.com" }),
      maxReplans: 0,
    }).run("mail ann");
    await run.done;
    expect(log).toHaveLength(1);
    expect(run.events.find((event) => event.type === "step-error" && event.final)).toMatchObject({
      stepId: "s1",
      error: { code: "timeout" },
    });
  });

  it("repeats a read-only or idempotent tool, and one the application gave retries", async () => {
    for (const setup of [
      { annotations: { readOnlyHint: true } },
      { annotations: { idempotentHint: true } },
      { policy: { retries: 1 } },
    ]) {
      const log: CallLog = [];
      const registry = new ToolRegistry().register(
        loggedTool("job", log, { failures: 1, ...("annotations" in setup ? { annotations: setup.annotations } : {}) }),
      );
      const planner = createFakePlanner({ steps: [tool("s1", "job", { n: 1 }), reply("s2", "{{s1.call}}")] });
      const policy = "policy" in setup ? { job: setup.policy } : {};
      const run = new AgentRuntime({
        planner,
        registry,
        ...quiet,
        retries: 0,
        policy,
        reflector: retryReflector(),
        maxReplans: 0,
      }).run("go");
      const state = await run.done;
      // The application's retries run first (one failure is one retry); a reflector is asked only when they are spent.
      expect(log).toHaveLength(2);
      expect(state.reply?.text).toBe("2");
    }
  });

  it("a retry the reflector asks for is counted once as a step of the budget", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(
      loggedTool("look", log, { failures: 2, annotations: { readOnlyHint: true } }),
    );
    const planner = createFakePlanner({ steps: [tool("s1", "look"), reply("s2", "{{s1.call}}")] });
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      retries: 0,
      reflectionRetries: 2,
      budget: { steps: 1 },
      reflector: retryReflector(),
      maxReplans: 0,
    }).run("go");
    const state = await run.done;
    expect(log).toHaveLength(3);
    expect(state.reason).toBe("completed");
  });
});

describe("arguments a reflector changes meet the approval policy", () => {
  const payPolicy =
    (seen: unknown[]): ApprovalPolicy =>
    ({ arguments: args }) => {
      seen.push(args["amount"]);
      return Number(args["amount"]) > 100 ? "step" : "none";
    };

  it("asks a person before paying the amount a reflector wrote, and pays nothing when denied", async () => {
    const log: CallLog = [];
    const seen: unknown[] = [];
    const registry = new ToolRegistry().register(
      loggedTool("pay", log, { failures: 1, annotations: { idempotentHint: true } }),
    );
    const planner = createFakePlanner({ steps: [tool("s1", "pay", { amount: 50 }), reply("s2", "paid")] });
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      retries: 0,
      maxReplans: 0,
      reflector: retryReflector({ amount: 1_000_000 }),
      policy: { pay: { approval: payPolicy(seen) } },
    }).run("pay 50");
    await untilWaiting(run);
    expect(log.map((call) => call.args["amount"])).toEqual([50]);
    expect(seen).toContain(1_000_000);
    const request = run.events.find((event) => event.type === "approval-request");
    expect(request).toMatchObject({ source: "step", steps: [{ stepId: "s1", arguments: { amount: 1_000_000 } }] });
    run.approve({ stepId: "s1", approved: false, reason: "far too much" });
    const state = await run.done;
    expect(log.map((call) => call.args["amount"])).toEqual([50]);
    expect(state.steps[0]).toMatchObject({ status: "skipped", skip: { code: "denied" } });
  });

  it("pays the changed amount once it is approved, and a plan's approval does not cover changed arguments", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(
      loggedTool("pay", log, { failures: 1, annotations: { idempotentHint: true } }),
    );
    const planner = createFakePlanner({ steps: [tool("s1", "pay", { amount: 5 }), reply("s2", "paid {{s1.call}}")] });
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      retries: 0,
      maxReplans: 0,
      reflector: retryReflector({ amount: 5000 }),
      policy: { pay: { approval: "plan" } },
    }).run("pay 5");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: true });
    await untilWaiting(run);
    expect(log.map((call) => call.args["amount"])).toEqual([5]);
    const requests = run.events.filter((event) => event.type === "approval-request");
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatchObject({ steps: [{ stepId: "s1", arguments: { amount: 5000 } }] });
    run.approve({ stepId: "s1", approved: true });
    const state = await run.done;
    expect(log.map((call) => call.args["amount"])).toEqual([5, 5000]);
    expect(state.reply?.text).toBe("paid 2");
  });
});

describe("a plan that lost a step runs no side effect", () => {
  it("a plan cut at maxSteps runs none of its transfers", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("transfer", log));
    const steps = [
      ...Array.from({ length: 6 }, (_, index) => ({
        id: `s${index + 1}`,
        type: "tool",
        name: "transfer",
        arguments: { to: `acct-${index + 1}`, amount: 10 },
      })),
      { id: "s7", type: "reply", text: "All six transfers are done." },
    ];
    const model = createScriptedModel({ responses: [JSON.stringify(steps)] });
    const run = new AgentRuntime({ planner: new LLMPlanner({ model, maxSteps: 6 }), registry, ...quiet }).run(
      "make six transfers",
    );
    const state = await run.done;
    expect(log).toEqual([]);
    expect(run.events.find((event) => event.type === "plan-end")).toMatchObject({ clean: false });
    // The reply would report the transfers done: it is withheld with them, and the answer says what was not done.
    expect(state.steps.filter((step) => step.skip?.code === "unsafe-plan").map((step) => step.step.id)).toEqual([
      "s1",
      "s2",
      "s3",
      "s4",
      "s5",
      "s7",
    ]);
    expect(state.reply?.text).not.toContain("All six transfers are done");
    expect(state.reply?.text).toContain("s1 (transfer) was not done (unsafe-plan)");
  });

  it("a plan whose step after the reply was dropped runs no side effect, but still reads", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([
      loggedTool("transfer", log),
      loggedTool("balance", log, { annotations: { readOnlyHint: true } }),
    ]);
    const plan = [
      { id: "s1", type: "tool", name: "balance", arguments: {} },
      { id: "s2", type: "tool", name: "transfer", arguments: { amount: 10 } },
      { id: "s3", type: "reply", text: "Done: {{s1.ok}}" },
      { id: "s4", type: "tool", name: "transfer", arguments: { amount: 90 } },
    ];
    const model = createScriptedModel({ responses: [JSON.stringify(plan)] });
    const run = new AgentRuntime({ planner: new LLMPlanner({ model }), registry, ...quiet }).run("move money");
    await run.done;
    expect(log.map((call) => call.name)).toEqual(["balance"]);
  });

  it("its reply does not report done a side effect the planner dropped: past maxSteps, or invalid", async () => {
    const plans = [
      { maxSteps: 2, steps: [{ amount: 10 }, "Transferred."] },
      { maxSteps: 6, steps: [{ amount: "ten" }, "Transferred."] },
    ];
    for (const { maxSteps, steps } of plans) {
      const log: CallLog = [];
      const transfer = loggedTool("transfer", log);
      transfer.inputSchema = { type: "object", properties: { amount: { type: "number" } } };
      const registry = new ToolRegistry().register([
        transfer,
        loggedTool("balance", log, { annotations: { readOnlyHint: true } }),
      ]);
      const plan = [
        { id: "s1", type: "tool", name: "balance", arguments: {} },
        ...steps.map((step, index) =>
          typeof step === "string"
            ? { id: `s${index + 2}`, type: "reply", text: step }
            : { id: `s${index + 2}`, type: "tool", name: "transfer", arguments: step },
        ),
      ];
      const model = createScriptedModel({ responses: [JSON.stringify(plan)] });
      const planner = new LLMPlanner({ model, maxSteps, repair: false });
      const run = new AgentRuntime({ planner, registry, ...quiet }).run("move money");
      const state = await run.done;
      expect(log.map((call) => call.name)).toEqual(["balance"]);
      expect(state.reply?.text).not.toContain("Transferred.");
      expect(state.steps.find((step) => step.step.type === "reply")?.skip).toEqual({
        code: "unsafe-plan",
        reason: "It reports on a plan that lost 1 step: the plan did not finish cleanly",
      });
    }
  });
});

describe("a step the run itself drops", () => {
  it("a planner that says clean but repeats an id lost a step: its side effects do not run", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([
      loggedTool("transfer", log),
      loggedTool("balance", log, { annotations: { readOnlyHint: true } }),
    ]);
    const planner = createFakePlanner({
      steps: [
        tool("s1", "balance"),
        tool("s2", "transfer", { amount: 5 }),
        tool("s2", "transfer", { amount: 500 }),
        reply("s3", "done"),
      ],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("go");
    const state = await run.done;
    expect(run.events.find((event) => event.type === "step-issue")).toMatchObject({
      issue: { code: "duplicate-id", stepId: "s2" },
      action: "dropped",
    });
    expect(state.plan?.clean).toBe(false);
    expect(log.map((call) => call.name)).toEqual(["balance"]);
  });

  it("a step without an id, a tool name or a usable id is dropped once, naming the field and the value", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([
      loggedTool("transfer", log),
      loggedTool("balance", log, { annotations: { readOnlyHint: true } }),
    ]);
    const steps = [
      { type: "tool", name: "balance", arguments: {} },
      { id: "s2", type: "tool", arguments: {} },
      { id: "s 3", type: "tool", name: "balance", arguments: {} },
      { id: "s4", type: "tool", name: "balance" },
      tool("s5", "transfer", { amount: 5 }),
      reply("s6", "done"),
    ] as PlanStep[];
    const run = new AgentRuntime({ planner: createFakePlanner({ steps }), registry, ...quiet }).run("go");
    const state = await run.done;
    const issues = run.events.flatMap((event) => (event.type === "step-issue" ? [event.issue] : []));
    expect(issues).toEqual([
      {
        code: "invalid-step",
        index: 0,
        path: "/steps/0/id",
        message: 'Step 1 is invalid: it has no "id"',
      },
      {
        code: "invalid-step",
        index: 0,
        stepId: "s2",
        path: "/steps/0/name",
        message: 'Step "s2" is invalid: it has no "name"',
      },
      {
        code: "invalid-step",
        index: 0,
        stepId: "s 3",
        path: "/steps/0/id",
        message: 'Step "s 3" is invalid: a step id must not contain whitespace, dots, braces or brackets, got "s 3"',
      },
      {
        code: "invalid-step",
        index: 0,
        stepId: "s4",
        path: "/steps/0/arguments",
        message: 'Step "s4" is invalid: it has no "arguments"',
      },
    ]);
    expect(state.steps.map((step) => step.step.id)).toEqual(["s5", "s6"]);
    expect(state.plan?.clean).toBe(false);
    expect(log).toEqual([]);
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("a re-plan patch with an entry that is not a step loses it, and the run goes on without its side effects", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([
      loggedTool("transfer", log),
      loggedTool("balance", log, { annotations: { readOnlyHint: true }, failures: 1 }),
    ]);
    const patch = [null, tool("s1", "balance"), tool("p2", "transfer"), reply("p3", "{{s1_r1.ok}}")] as PlanStep[];
    const planner = createFakePlanner({
      steps: [tool("s1", "balance"), reply("s2", "{{s1.ok}}")],
      replan: () => patch,
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, retries: 0 }).run("go");
    const state = await run.done;
    expect(run.events.find((event) => event.type === "step-issue")).toMatchObject({
      issue: { code: "invalid-step", path: "/steps", message: "Step 3 is null, not a step" },
      action: "dropped",
    });
    expect(log.map((call) => call.name)).toEqual(["balance", "balance"]);
    expect(state.steps.find((step) => step.step.id === "p2")?.skip?.code).toBe("unsafe-plan");
    expect(state.error?.message).not.toContain("Internal error");
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it('a step named "context" cannot take the run context\'s place', async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([loggedTool("balance", log, { annotations: { readOnlyHint: true } })]);
    const planner = createFakePlanner({
      steps: [tool("context", "balance"), tool("s2", "balance", { city: "{{context.city}}" }), reply("s3", "done")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet }).run("go", { context: { city: "Paris" } });
    await run.done;
    expect(run.events.find((event) => event.type === "step-issue")).toMatchObject({
      issue: {
        code: "invalid-step",
        stepId: "context",
        path: "/steps/0/id",
        message: 'Step "context" is invalid: "context" is reserved for run-context references, got "context"',
      },
    });
    expect(log).toEqual([{ name: "balance", args: { city: "Paris" } }]);
  });
});

describe("events carry frozen copies", () => {
  it("a consumer that edits step-planned's arguments changes nothing the tool receives", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("transfer", log));
    let run: RunHandle | undefined;
    let edited: string | undefined;
    const planner = createFakePlanner({
      steps: [tool("s1", "transfer", { amount: 10, to: { account: "A" } }), reply("s2", "ok")],
      afterStep: (step) => {
        const planned = run?.events.find(
          (event): event is Extract<RuntimeEvent, { type: "step-planned" }> =>
            event.type === "step-planned" && event.step.id === step.id,
        );
        if (planned?.step.type !== "tool") return;
        expect(Object.isFrozen(planned.step.arguments)).toBe(true);
        try {
          planned.step.arguments["amount"] = 1_000_000;
          (planned.step.arguments["to"] as Record<string, unknown>)["account"] = "MALLORY";
        } catch (error) {
          edited = (error as Error).name;
        }
      },
    });
    run = new AgentRuntime({ planner, registry, ...quiet }).run("pay");
    await run.done;
    expect(edited).toBe("TypeError");
    expect(log[0]?.args).toEqual({ amount: 10, to: { account: "A" } });
  });

  it("a planner that changes its step after handing it over changes nothing that runs", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("transfer", log));
    const step = tool("s1", "transfer", { amount: 10 });
    const planner = createFakePlanner({
      steps: [step, reply("s2", "ok")],
      afterStep: (handed) => {
        if (handed.type === "tool") handed.arguments["amount"] = 999;
      },
    });
    await new AgentRuntime({ planner, registry, ...quiet }).run("pay").done;
    expect(log[0]?.args).toEqual({ amount: 10 });
  });

  it("an approval function receives a frozen copy: editing it cannot change the call, and it asks instead", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("pay", log));
    const approval: ApprovalPolicy = ({ arguments: args }) => {
      (args as Record<string, unknown>)["amount"] = 1;
      return "none";
    };
    const planner = createFakePlanner({ steps: [tool("s1", "pay", { amount: 500 }), reply("s2", "ok")] });
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { pay: { approval } } }).run("pay");
    await untilWaiting(run);
    // The edit threw, and a policy that throws asks.
    expect(run.waitingForApproval).toBe(true);
    run.approve({ stepId: "s1", approved: true });
    await run.done;
    expect(log[0]?.args).toEqual({ amount: 500 });
  });

  it("an approval function that throws asks a person", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("pay", log));
    const planner = createFakePlanner({ steps: [tool("s1", "pay", { amount: 5 }), reply("s2", "ok")] });
    const run = new AgentRuntime({
      planner,
      registry,
      ...quiet,
      policy: {
        pay: {
          approval: () => {
            throw new Error("policy bug");
          },
        },
      },
    }).run("pay");
    await untilWaiting(run);
    expect(run.waitingForApproval).toBe(true);
    expect(log).toEqual([]);
    run.approve({ stepId: "s1", approved: false, reason: "no" });
    await run.done;
    expect(log).toEqual([]);
  });
});

describe("a denial is an answer", () => {
  it("a run whose only unmet steps were denied completes, and its reply says what was not done and why", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([
      loggedTool("lookup", log, { annotations: { readOnlyHint: true } }),
      loggedTool("save_note", log),
    ]);
    const planner = createFakePlanner({
      steps: [tool("s1", "lookup"), tool("s2", "save_note", { text: "{{s1.ok}}" }), reply("s3", "Saved: {{s2.ok}}")],
    });
    const run = new AgentRuntime({ planner, registry, ...quiet, policy: { save_note: { approval: "plan" } } }).run(
      "note it",
    );
    await untilWaiting(run);
    run.approve({ stepId: "s2", approved: false, reason: "not now" });
    const state = await run.done;
    expect(state.reason).toBe("completed");
    expect(run.events.at(-1)).not.toHaveProperty("error");
    expect(state.reply?.text).toContain("s2 (save_note) was not done: denied (not now)");
    expect(log.map((call) => call.name)).toEqual(["lookup"]);
  });

  it("steps that time out waiting for a person complete the run too; a failure beside a denial still fails it", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register([
      loggedTool("save_note", log),
      loggedTool("broken", log, { failures: 5 }),
    ]);
    const timedOut = await new AgentRuntime({
      planner: createFakePlanner({ steps: [tool("s1", "save_note"), reply("s2", "{{s1.ok}}")] }),
      registry,
      ...quiet,
      approvalTimeoutMs: 10,
      policy: { save_note: { approval: "step" } },
    }).run("x").done;
    expect(timedOut.reason).toBe("completed");
    expect(timedOut.reply?.text).toContain("was not done: denied (No decision within 10 ms)");
    const mixed = new AgentRuntime({
      planner: createFakePlanner({
        steps: [tool("s1", "save_note"), tool("s2", "broken"), reply("s3", "{{s1.ok}} {{s2.ok}}")],
      }),
      registry,
      ...quiet,
      maxReplans: 0,
      policy: { save_note: { approval: "plan" } },
    }).run("y");
    await untilWaiting(mixed);
    mixed.approve({ stepId: "s1", approved: false, reason: "no" });
    expect((await mixed.done).reason).toBe("failed");
  });

  it("the model integrating the answer hears why a step was not done", async () => {
    const log: CallLog = [];
    const registry = new ToolRegistry().register(loggedTool("save_note", log));
    const model = createEchoModel(() => "I did not save the note.");
    const run = new AgentRuntime({
      planner: createFakePlanner({ steps: [tool("s1", "save_note"), reply("s2", "{{s1.ok}}")] }),
      registry,
      ...quiet,
      model,
      integrate: "model",
      policy: { save_note: { approval: "plan" } },
    }).run("save");
    await untilWaiting(run);
    run.approve({ stepId: "s1", approved: false, reason: "private" });
    expect((await run.done).reason).toBe("completed");
    expect(model.requests.at(-1)?.prompt).toContain("s1 (save_note) was not done: denied (private)");
  });
});

describe("properties over random plans, failures and reflector answers", () => {
  type Kind = "readOnly" | "idempotent" | "effect";
  const kinds: Kind[] = ["readOnly", "idempotent", "effect"];
  const annotationsOf = (kind: Kind): ToolDefinition["annotations"] =>
    kind === "readOnly" ? { readOnlyHint: true } : kind === "idempotent" ? { idempotentHint: true } : {};
  const verdict = fc.oneof(
    fc.constant(undefined),
    fc.constant<Reflection>({ action: "retry", reason: "again" }),
    fc
      .record({ amount: fc.integer({ min: 0, max: 1000 }) })
      .map((args): Reflection => ({ action: "retry", reason: "changed", arguments: args })),
    fc.constant<Reflection>({ action: "new_plan", reason: "other way" }),
  );
  const stepArbitrary = fc.record({
    kind: fc.constantFrom(...kinds),
    amount: fc.integer({ min: 0, max: 1000 }),
    failures: fc.integer({ min: 0, max: 3 }),
    approvalMode: fc.constantFrom("none", "function", "plan"),
  });

  it("no tool that may have acted starts twice; no call starts with arguments the approval policy has not seen", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 5 }),
        fc.array(verdict, { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        async (specs, verdicts, decisions) => {
          const log: CallLog = [];
          const seen = new Map<string, Set<string>>();
          const policy: Record<string, { approval?: ApprovalPolicy }> = {};
          const tools = specs.map((spec, index) => {
            const name = `t${index}`;
            if (spec.approvalMode === "plan") policy[name] = { approval: "plan" };
            if (spec.approvalMode === "function") {
              policy[name] = {
                approval: ({ arguments: args, resolved }) => {
                  if (resolved) {
                    const set = seen.get(name) ?? new Set<string>();
                    set.add(canonicalJson(args));
                    seen.set(name, set);
                  }
                  return Number(args["amount"]) > 500 ? "step" : "none";
                },
              };
            }
            return loggedTool(name, log, { annotations: annotationsOf(spec.kind), failures: spec.failures });
          });
          const registry = new ToolRegistry().register(tools);
          const steps: PlanStep[] = specs.map((spec, index) =>
            tool(`s${index + 1}`, `t${index}`, { amount: spec.amount }),
          );
          steps.push(reply(`s${specs.length + 1}`, "done"));
          let asked = 0;
          const reflector = { reflect: (): Reflection | undefined => verdicts[asked++ % verdicts.length] };
          const run = new AgentRuntime({
            planner: createFakePlanner({ steps }),
            registry,
            ...quiet,
            retries: 1,
            reflectionRetries: 2,
            maxReplans: 0,
            reflector,
            policy,
          }).run("go");
          let decided = 0;
          for (;;) {
            await untilWaiting(run);
            if (run.state.status === "ended") break;
            run.approve(
              run.state.awaitingApproval.map((stepId) => ({
                stepId,
                approved: decisions[decided++ % decisions.length] ?? true,
                reason: "no",
              })),
            );
          }
          specs.forEach((spec, index) => {
            const calls = log.filter((call) => call.name === `t${index}`);
            if (spec.kind === "effect") expect(calls.length).toBeLessThanOrEqual(1);
            if (spec.approvalMode === "function") {
              for (const call of calls) expect(seen.get(`t${index}`)?.has(canonicalJson(call.args))).toBe(true);
            }
          });
          expect(invariantProblems(run.events)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a plan that lost a step to maxSteps or after its reply runs no side effect", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (plan, maxSteps, trailing) => {
          const log: CallLog = [];
          const registry = new ToolRegistry().register(
            kinds.map((kind) => loggedTool(kind, log, { annotations: annotationsOf(kind) })),
          );
          const steps: unknown[] = plan.map((kind, index) => ({
            id: `s${index + 1}`,
            type: "tool",
            name: kind,
            arguments: { n: index },
          }));
          steps.push({ id: "r", type: "reply", text: "done" });
          if (trailing) steps.push({ id: "late", type: "tool", name: "effect", arguments: {} });
          const model = createScriptedModel({ responses: [JSON.stringify(steps)] });
          const run = new AgentRuntime({
            planner: new LLMPlanner({ model, maxSteps, repair: false }),
            registry,
            ...quiet,
          }).run("go");
          await run.done;
          const lost = plan.length > maxSteps - 1 || trailing;
          if (lost) expect(log.filter((call) => call.name !== "readOnly")).toEqual([]);
          else expect(log).toHaveLength(plan.length);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("a run whose only unmet steps were denied completes, and its answer names each denied step", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ asks: fc.boolean(), uses: fc.array(fc.nat(), { maxLength: 2 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (specs, decisions, replyUsesAll) => {
          const log: CallLog = [];
          const registry = new ToolRegistry().register([
            loggedTool("ask", log),
            loggedTool("free", log, { annotations: { readOnlyHint: true } }),
          ]);
          const steps: PlanStep[] = specs.map((spec, index) => {
            // References only to earlier steps: a DAG whose denials cascade.
            const uses = spec.uses.filter((target) => target < index).map((target) => `{{s${target + 1}.ok}}`);
            return tool(`s${index + 1}`, spec.asks ? "ask" : "free", { n: index, after: uses.join(" ") });
          });
          steps.push(reply("r", replyUsesAll ? steps.map((step) => `{{${step.id}.ok}}`).join(" ") : "done"));
          const run = new AgentRuntime({
            planner: createFakePlanner({ steps }),
            registry,
            ...quiet,
            policy: { ask: { approval: "step" } },
          }).run("go");
          const denied: string[] = [];
          let decided = 0;
          for (;;) {
            await untilWaiting(run);
            if (run.state.status === "ended") break;
            run.approve(
              run.state.awaitingApproval.map((stepId) => {
                const approved = decisions[decided++ % decisions.length] ?? true;
                if (!approved) denied.push(stepId);
                return approved ? { stepId, approved } : { stepId, approved, reason: "no" };
              }),
            );
          }
          expect(run.state.reason).toBe("completed");
          const text = run.state.reply?.text ?? "";
          // A reply step that ran says what it says; an answer the runtime wrote names every denied step.
          if (run.state.reply?.source === "template")
            for (const stepId of denied) expect(text).toContain(`${stepId} (ask) was not done: denied (no)`);
          expect(log.filter((call) => call.name === "ask")).toHaveLength(
            specs.filter((spec) => spec.asks).length - denied.length - skippedAfterDenial(run.state.steps, denied),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

/**
 * How many `ask` steps were not asked because a step they needed was denied.
 *
 * @param steps - the run's steps.
 * @param denied - the ids a person denied.
 * @returns the count.
 */
function skippedAfterDenial(
  steps: readonly { step: PlanStep; status: string; skip?: { code: string } }[],
  denied: readonly string[],
): number {
  return steps.filter(
    (state) =>
      state.step.type === "tool" &&
      state.step.name === "ask" &&
      state.status === "skipped" &&
      !denied.includes(state.step.id),
  ).length;
}
