/**
 * The approval requests of a run on their own: their numbers, what each
 * lists for a step, and the timeout of each request on a manual clock.
 */
import { describe, expect, it } from "vitest";
import { ApprovalRequests } from "../../../src/runtime/run/approval-requests.ts";
import { StepTable } from "../../../src/runtime/run/step-table.ts";
import { createFakeClock } from "./fake-clock.ts";
import { createRegistry, planSource, toolStep } from "./part-fixtures.ts";

const { registry } = createRegistry();

function setup(timeoutMs: number | undefined) {
  const clock = createFakeClock();
  const requests = new ApprovalRequests(registry, clock, timeoutMs);
  const table = new StepTable({ user: "ann" });
  return { clock, requests, table };
}

describe("ApprovalRequests numbering", () => {
  it("numbers requests a1, a2, … per run and reports its timeout", () => {
    const { requests } = setup(250);
    expect([requests.nextRequestId(), requests.nextRequestId(), requests.nextRequestId()]).toEqual(["a1", "a2", "a3"]);
    expect(setup(undefined).requests.nextRequestId()).toBe("a1");
    expect(requests.timeoutMs).toBe(250);
    expect(setup(undefined).requests.timeoutMs).toBeUndefined();
  });
});

describe("ApprovalRequests.describe", () => {
  it("lists the arguments as far as results resolve them and the references still waited on", () => {
    const { requests, table } = setup(1_000);
    table.results.set("s0", { email: "ann@example.com" });
    const args = { to: "{{s0.email}}", amount: 5, note: "Ref {{s9}} now", list: ["{{s8.x}}"], who: "{{context.user}}" };
    const entry = table.add(toolStep("s1", "pay", args), planSource());
    expect(requests.describe(entry, table, "plan")).toEqual({
      stepId: "s1",
      tool: "pay",
      description: "Pay an amount",
      arguments: { to: "ann@example.com", amount: 5, note: "Ref {{s9}} now", list: ["{{s8.x}}"], who: "ann" },
      waiting: [
        { pointer: "/note", reference: "{{s9}}" },
        { pointer: "/list/0", reference: "{{s8.x}}" },
      ],
      mode: "plan",
    });
  });

  it("lists the arguments a person edited in place of the planned ones", () => {
    const { requests, table } = setup(1_000);
    const entry = table.add(toolStep("s1", "pay", { amount: 5 }), planSource());
    entry.edited = { amount: 3, memo: "{{s2}}" };
    expect(requests.describe(entry, table, "step")).toMatchObject({
      arguments: { amount: 3, memo: "{{s2}}" },
      waiting: [{ pointer: "/memo", reference: "{{s2}}" }],
      mode: "step",
    });
  });

  it("describes a step by its own description, else its tool's, else with nothing", () => {
    const { requests, table } = setup(1_000);
    const own = table.add({ ...toolStep("s1", "pay"), description: "Pay the invoice" }, planSource());
    const fromTool = table.add(toolStep("s2", "pay"), planSource());
    const none = table.add(toolStep("s3", "put"), planSource());
    expect(requests.describe(own, table, "plan").description).toBe("Pay the invoice");
    expect(requests.describe(fromTool, table, "plan").description).toBe("Pay an amount");
    expect(requests.describe(none, table, "plan").description).toBe("");
  });

  it("gives each request its own copy: changing it changes neither the step nor the results", () => {
    const { requests, table } = setup(1_000);
    table.results.set("s0", Object.freeze({ card: Object.freeze({ last4: "4242" }) }));
    const entry = table.add(toolStep("s1", "pay", { card: "{{s0.card}}", limits: { max: 10 } }), planSource());
    const item = requests.describe(entry, table, "plan");
    (item.arguments["card"] as Record<string, unknown>)["last4"] = "0000";
    (item.arguments["limits"] as Record<string, unknown>)["max"] = 1e9;
    expect(table.results.get("s0")).toEqual({ card: { last4: "4242" } });
    expect(entry.step).toMatchObject({ arguments: { card: "{{s0.card}}", limits: { max: 10 } } });
    expect(requests.describe(entry, table, "plan").arguments).toEqual({ card: { last4: "4242" }, limits: { max: 10 } });
  });
});

describe("ApprovalRequests timers", () => {
  it("runs no timer when requests wait until the run ends", () => {
    const { clock, requests } = setup(undefined);
    let fired = 0;
    requests.startTimer("a1", () => fired++);
    expect(clock.timers).toBe(0);
    clock.advance(1e9);
    expect(fired).toBe(0);
  });

  it("calls back once, exactly when the timeout passes", () => {
    const { clock, requests } = setup(1_000);
    let fired = 0;
    requests.startTimer("a1", () => fired++);
    clock.advance(999);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
    clock.advance(5_000);
    expect(fired).toBe(1);
    // A fired timer is forgotten: settling or closing afterwards clears nothing else.
    requests.settled("a1");
    requests.close();
    expect(clock.timers).toBe(0);
  });

  it("keeps a request's timer while one of its steps still waits, and stops it once none does", () => {
    const { clock, requests, table } = setup(1_000);
    const first = table.add(toolStep("s1", "pay"), planSource());
    const second = table.add(toolStep("s2", "pay"), planSource());
    const other = table.add(toolStep("s3", "pay"), planSource());
    first.approval = { mode: "plan", status: "requested", requestId: "a1", shown: {} };
    second.approval = { mode: "plan", status: "requested", requestId: "a1", shown: {} };
    other.approval = { mode: "plan", status: "requested", requestId: "a2", shown: {} };
    for (const entry of [first, second, other]) requests.waiting.add(entry);
    const fired: string[] = [];
    requests.startTimer("a1", () => fired.push("a1"));
    requests.startTimer("a2", () => fired.push("a2"));

    // Decided steps may still sit in `waiting`: only a step still requested keeps its request's timer.
    first.approval = { mode: "plan", status: "approved", requestId: "a1", shown: {} };
    requests.settled("a1");
    expect(clock.timers).toBe(2);

    second.approval = { mode: "plan", status: "denied", requestId: "a1", reason: undefined };
    requests.waiting.delete(second);
    requests.settled("a1");
    expect(clock.timers).toBe(1);
    clock.advance(1_000);
    expect(fired).toEqual(["a2"]);
  });

  it("stops every timer when the run ends", () => {
    const { clock, requests } = setup(1_000);
    const fired: string[] = [];
    requests.startTimer("a1", () => fired.push("a1"));
    requests.startTimer("a2", () => fired.push("a2"));
    expect(clock.timers).toBe(2);
    requests.close();
    expect(clock.timers).toBe(0);
    clock.advance(10_000);
    expect(fired).toEqual([]);
  });
});
