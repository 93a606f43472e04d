/**
 * Checking decisions against a recorded run agrees with the live run's own
 * check, and `expireApprovals` denies what waits as a timeout would.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { AgentRuntime, type RunHandle } from "../../src/runtime/agent-runtime.ts";
import type { ApprovalDecision } from "../../src/events/approval-decision.ts";
import { checkApprovalDecisions } from "../../src/runtime/check-approval-decisions.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { replay } from "../../src/events/replay.ts";
import { createFakePlanner, invariantProblems, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const quiet = { memory: false, reflector: noOpReflector, integrate: "template", backoff: { initialMs: 1, jitter: 0 }, sleep: async () => undefined } as const;

/** A run that waits for `send` (s2, after the lookup s1) and `remove` (s3); s4 needs no approval; s5 replies. */
async function waitingRun(approvalTimeoutMs?: number): Promise<{ run: RunHandle; registry: ReturnType<typeof createTestRegistry>["registry"]; calls: ReturnType<typeof createTestRegistry>["calls"] }> {
  const { registry, calls } = createTestRegistry();
  const planner = createFakePlanner({
    steps: [
      tool("s1", "lookup", { q: "paris" }),
      tool("s2", "send", { to: "ann", text: "{{s1.value}}" }),
      tool("s3", "remove", { id: "r1" }),
      tool("s4", "put", { key: "k", value: 1 }),
      reply("s5", "done {{s2.sent}} {{s3.removed}}"),
    ],
  });
  const runtime = new AgentRuntime({ planner, registry, ...quiet, policy: { send: { approval: "plan" }, remove: { approval: "plan" } }, ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }) });
  const run = runtime.run("mail ann and clean up");
  const iterator = run[Symbol.asyncIterator]();
  while (!run.waitingForApproval && run.state.status !== "ended") if ((await iterator.next()).done === true) break;
  return { run, registry, calls };
}

/** What a check does: the message of the PlankitError it throws, or `ok`. */
function outcome(action: () => unknown): string {
  try {
    action();
    return "ok";
  } catch (error) {
    if (PlankitError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

const decisionArbitrary: fc.Arbitrary<ApprovalDecision> = fc.oneof(
  fc.record({ stepId: fc.constantFrom("s1", "s2", "s3", "s4", "s5", "s9"), approved: fc.constant(true as const) }),
  fc.record({
    stepId: fc.constantFrom("s2", "s3"),
    approved: fc.constant(true as const),
    arguments: fc.oneof(
      fc.constant({ to: "bob", text: "hi" }),
      fc.constant({ to: 42 }),
      fc.constant({ text: "no recipient" }),
      fc.constant({ id: "r2" }),
      fc.constant({ to: "bob", text: "{{s1.value}}" }),
      fc.constant({ to: "bob", text: "{{s4.value}}" }),
    ),
  }),
  fc.record({ stepId: fc.constantFrom("s2", "s3", "s4"), approved: fc.constant(false as const), reason: fc.constantFrom("no", "later") }),
);

describe("checkApprovalDecisions", () => {
  it("refuses and accepts exactly what the live run refuses and accepts, with the same message", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(decisionArbitrary, { minLength: 1, maxLength: 3 }), async (decisions) => {
        const { run, registry } = await waitingRun();
        const recorded = checkApprovalDecisions.bind(undefined, replay(run.events), decisions, registry);
        const expected = outcome(recorded);
        expect(outcome(() => run.approve(decisions))).toBe(expected);
        run.abort();
        await run.done;
      }),
      { numRuns: 60 },
    );
  });

  it("names the path of an invalid edit, refuses a step already decided or a run that ended, and fills in a denial's reason", async () => {
    const { run, registry } = await waitingRun();
    const state = replay(run.events);
    expect(outcome(() => checkApprovalDecisions(state, { stepId: "s2", approved: true, arguments: { to: 42 } }, registry))).toBe(
      `invalid-argument: Edited arguments of step "s2" (tool "send"): argument "to" is 42, expected string (/to)`,
    );
    expect(checkApprovalDecisions(state, [{ stepId: "s3", approved: false }], registry)).toEqual([{ stepId: "s3", approved: false, reason: "Denied" }]);
    run.approve({ stepId: "s2", approved: true });
    expect(outcome(() => checkApprovalDecisions(replay(run.events), { stepId: "s2", approved: true }, registry))).toBe(`invalid-approval: Step "s2" was already approved`);
    run.approve({ stepId: "s3", approved: false, reason: "keep it" });
    const ended = await run.done;
    expect(outcome(() => checkApprovalDecisions(ended, { stepId: "s3", approved: true }, registry))).toMatch(/^invalid-approval: Run ".+" already ended/);
  });
});

describe("RunHandle.expireApprovals", () => {
  it("denies every waiting step as the timeout would, and the run goes on without them", async () => {
    const { run, calls } = await waitingRun(86_400_000);
    expect(run.state.awaitingApproval).toEqual(["s2", "s3"]);
    run.expireApprovals();
    const state = await run.done;
    const decisions = run.events.filter((event) => event.type === "approval-decision");
    expect(decisions.map((event) => [event.stepId, event.approved, event.by, event.reason])).toEqual([
      ["s2", false, "timeout", "No decision within 86400000 ms"],
      ["s3", false, "timeout", "No decision within 86400000 ms"],
    ]);
    expect(state.steps.map((step) => [step.step.id, step.status, step.skip?.code])).toEqual([
      ["s1", "succeeded", undefined],
      ["s2", "skipped", "denied"],
      ["s3", "skipped", "denied"],
      ["s4", "succeeded", undefined],
      ["s5", "skipped", "dependency-failed"],
    ]);
    expect(calls.map((call) => call.name)).not.toContain("send");
    expect(invariantProblems(run.events)).toEqual([]);
    // Nothing waits any more: a second call changes nothing.
    const count = run.events.length;
    run.expireApprovals();
    expect(run.events.length).toBe(count);
  });
});
