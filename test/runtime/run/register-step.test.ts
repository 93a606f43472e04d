/**
 * A planned step joining the run, on its own: what lands in the table and
 * the `step-planned` event, the run's frozen copy, approval tracking, and
 * every kind of step the run drops with a `step-issue`.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { Approvals } from "../../../src/runtime/run/approvals.ts";
import { registerStep } from "../../../src/runtime/run/register-step.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import type { ToolPolicy } from "../../../src/runtime/tool-policy.ts";
import { createPartRun, planSource, toolStep, typesOf } from "./part-fixtures.ts";

function setup(options: { tools?: Record<string, ToolPolicy>; eager?: "safe" | "all" | "none" } = {}) {
  const run = createPartRun(options);
  const approvals = new Approvals(run.core, () => undefined);
  const register = (step: unknown, source: StepSource) => registerStep(run.core, approvals, step as PlanStep, source);
  return { ...run, approvals, register };
}

type Issue = Extract<RuntimeEvent, { type: "step-issue" }>;
const issueOf = (events: RuntimeEvent[]): Issue => {
  const last = events.at(-1);
  if (last?.type !== "step-issue") throw new Error(`expected a step-issue, got ${last?.type}`);
  return last;
};

describe("registerStep: a step the run takes", () => {
  it("adds it to the table and announces it with its index, source kind and whether it may start early", () => {
    const { table, events, register } = setup();
    const source: StepSource = { kind: "replan", attempt: 2, state: "streaming" };
    const read = register(toolStep("s1", "read", { id: 1 }), source);
    const pay = register(toolStep("s2", "pay", { amount: 5 }), source);
    expect(read).toBe(table.get("s1"));
    expect(pay).toBe(table.get("s2"));
    expect(pay?.source).toBe(source);
    expect(events).toEqual([
      {
        runId: "r1",
        t: 0,
        type: "step-planned",
        step: { id: "s1", type: "tool", name: "read", arguments: { id: 1 } },
        index: 0,
        source: "replan",
        safe: true,
      },
      {
        runId: "r1",
        t: 0,
        type: "step-planned",
        step: { id: "s2", type: "tool", name: "pay", arguments: { amount: 5 } },
        index: 1,
        source: "replan",
        safe: false,
      },
    ]);
  });

  it("follows the eager setting for whether a step is safe to start early", () => {
    const all = setup({ eager: "all" });
    all.register(toolStep("s1", "pay"), planSource("streaming"));
    const none = setup({ eager: "none" });
    none.register(toolStep("s1", "read"), planSource("streaming"));
    expect(all.events[0]).toMatchObject({ safe: true });
    expect(none.events[0]).toMatchObject({ safe: false });
  });

  it("keeps its own frozen copy: neither the planner nor a consumer of the event changes what runs", () => {
    const { events, register } = setup();
    const to = { iban: "DE00" };
    const args: Record<string, unknown> = { amount: 5, to };
    const planned = toolStep("s1", "pay", args);
    const entry = register(planned, planSource());
    args["amount"] = 5_000;
    to.iban = "XX99";
    expect(entry?.step).not.toBe(planned);
    expect(entry?.step).toEqual({
      id: "s1",
      type: "tool",
      name: "pay",
      arguments: { amount: 5, to: { iban: "DE00" } },
    });
    const announced = (events[0] as Extract<RuntimeEvent, { type: "step-planned" }>).step as unknown as {
      arguments: { amount: number; to: object };
    };
    expect(Object.isFrozen(announced)).toBe(true);
    expect(Object.isFrozen(announced.arguments.to)).toBe(true);
    expect(() => {
      announced.arguments.amount = 1;
    }).toThrow();
  });

  it("tracks a step its tool's approval policy marks, and never calls it safe, even read-only", () => {
    const { register, events, approvals } = setup({ tools: { read: { approval: "plan" }, pay: { approval: "step" } } });
    const read = register(toolStep("s1", "read"), planSource("streaming"));
    const pay = register(toolStep("s2", "pay"), planSource("streaming"));
    const put = register(toolStep("s3", "put"), planSource("streaming"));
    expect(read?.approval).toEqual({ mode: "plan", status: "unasked" });
    expect(pay?.approval).toEqual({ mode: "step", status: "unasked" });
    expect(put?.approval).toBeUndefined();
    expect(events.map((event) => (event as { safe?: boolean }).safe)).toEqual([false, false, false]);
    // Tracked steps are asked for once their source ends.
    expect(approvals.waiting).toBe(0);
  });

  it("asks a function approval policy with the planned arguments, not yet resolved", () => {
    const asked: unknown[] = [];
    const { register } = setup({
      tools: {
        pay: {
          approval: (request) => {
            asked.push(request);
            return (request.arguments["amount"] as number) > 100 ? "step" : "none";
          },
        },
      },
    });
    const small = register(toolStep("s1", "pay", { amount: 5 }), planSource());
    const large = register(toolStep("s2", "pay", { amount: 500 }), planSource());
    expect(small?.approval).toBeUndefined();
    expect(large?.approval).toEqual({ mode: "step", status: "unasked" });
    expect(asked).toEqual([
      { tool: "pay", stepId: "s1", arguments: { amount: 5 }, resolved: false },
      { tool: "pay", stepId: "s2", arguments: { amount: 500 }, resolved: false },
    ]);
  });

  it("takes a reply whose text is empty and an llm step", () => {
    const { register, table, events } = setup();
    const reply = register({ id: "r1", type: "reply", text: "" }, planSource());
    const llm = register({ id: "l1", type: "llm", prompt: "Sum up {{s1}}" }, planSource());
    expect(reply?.step).toEqual({ id: "r1", type: "reply", text: "" });
    expect(llm?.step).toEqual({ id: "l1", type: "llm", prompt: "Sum up {{s1}}" });
    expect(table.order).toEqual([reply, llm]);
    expect(llm?.deps).toEqual(["s1"]);
    expect(typesOf(events)).toEqual(["step-planned", "step-planned"]);
  });
});

describe("registerStep: a step the run drops", () => {
  it("drops what is not a step, naming its position, and marks a clean source lost and unclean", () => {
    const { register, table, events } = setup();
    register(toolStep("s1", "read"), planSource());
    const source = planSource("clean");
    expect(register(null, source)).toBeUndefined();
    expect(issueOf(events)).toStrictEqual({
      runId: "r1",
      t: 0,
      type: "step-issue",
      issue: { code: "invalid-step", index: 1, path: "/steps", message: "Step 2 is null, not a step" },
      action: "dropped",
    });
    expect(source).toMatchObject({ lost: true, state: "unclean" });
    expect(table.order.length).toBe(1);
    // The next step takes the position the dropped one would have had.
    expect(register(toolStep("s2", "read"), planSource())?.index).toBe(1);
  });

  it("keeps a streaming source streaming (it can only end unclean) and leaves an unclean one unclean", () => {
    const { register, events } = setup();
    const streaming = planSource("streaming");
    register(["not", "a", "step"], streaming);
    expect(issueOf(events).issue.message).toBe('Step 1 is ["not","a","step"], not a step');
    expect(streaming).toMatchObject({ lost: true, state: "streaming" });
    const unclean = planSource("unclean");
    register("s1", unclean);
    expect(issueOf(events).issue.message).toBe('Step 1 is "s1", not a step');
    expect(unclean).toMatchObject({ lost: true, state: "unclean" });
  });

  it("drops a step that is not JSON, naming the step", () => {
    const { register, events, table } = setup();
    const source = planSource("streaming");
    expect(register(toolStep("s1", "pay", { amount: Number.NaN }), source)).toBeUndefined();
    const issue = issueOf(events).issue;
    expect(issue).toMatchObject({ code: "invalid-step", index: 0, path: "/steps", stepId: "s1" });
    expect(issue.message).toContain('Step "s1"');
    expect(issue.message).toContain("NaN");
    expect(register(toolStep("s2", "pay", { run: () => 1 }), source)).toBeUndefined();
    expect(issueOf(events).issue).toMatchObject({ code: "invalid-step", stepId: "s2" });
    expect(table.order).toEqual([]);
    expect(typesOf(events)).toEqual(["step-issue", "step-issue"]);
    expect(source.lost).toBe(true);
  });

  it("drops a step the schemas refuse, saying where and what, with the value it got", () => {
    const { register, events } = setup();
    register(toolStep("s0", "read"), planSource());
    register({ id: "s1", type: "tool", arguments: {} }, planSource());
    expect(issueOf(events).issue).toEqual({
      code: "invalid-step",
      index: 1,
      path: "/steps/1/name",
      message: 'Step "s1" is invalid: it has no "name"',
      stepId: "s1",
    });
    register({ id: "s2", type: "tool", name: 7, arguments: {} }, planSource());
    const issue = issueOf(events).issue;
    expect(issue).toMatchObject({ code: "invalid-step", index: 1, path: "/steps/1/name", stepId: "s2" });
    expect(issue.message).toMatch(/^Step "s2" is invalid: .*, got 7$/);
  });

  it("drops a step without a usable id, and the reserved id context", () => {
    const { register, events } = setup();
    register({ type: "tool", name: "read", arguments: {} }, planSource());
    expect(issueOf(events).issue).toEqual({
      code: "invalid-step",
      index: 0,
      path: "/steps/0/id",
      message: 'Step 1 is invalid: it has no "id"',
    });
    register(toolStep("context", "read"), planSource());
    expect(issueOf(events).issue).toMatchObject({ code: "invalid-step", path: "/steps/0/id", stepId: "context" });
    expect(typesOf(events)).toEqual(["step-issue", "step-issue"]);
  });

  it("drops a step whose id is taken and keeps the first", () => {
    const { register, events, table } = setup();
    const first = register(toolStep("s1", "read", { v: 1 }), planSource());
    const source = planSource("clean");
    expect(register(toolStep("s1", "pay", { v: 2 }), source)).toBeUndefined();
    expect(issueOf(events).issue).toEqual({
      code: "duplicate-id",
      index: 1,
      path: "/steps",
      message: 'Step id "s1" is already taken; the step was dropped',
      stepId: "s1",
    });
    expect(table.get("s1")).toBe(first);
    expect(table.order.length).toBe(1);
    expect(source).toMatchObject({ lost: true, state: "unclean" });
  });

  it("asks no approval policy for a step it drops", () => {
    let asked = 0;
    const { register } = setup({ tools: { pay: { approval: () => (asked++, "step") } } });
    register(toolStep("s1", "pay"), planSource());
    register(toolStep("s1", "pay"), planSource());
    register(toolStep("s2", "pay", { bad: Number.POSITIVE_INFINITY }), planSource());
    expect(asked).toBe(1);
  });
});
