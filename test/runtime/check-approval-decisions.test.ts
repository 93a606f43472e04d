/**
 * Checking decisions against a recorded run agrees with the live run's own
 * check, and `expireApprovals` denies what waits as a timeout would.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import type { ApprovalDecision } from "../../src/events/approval-decision.ts";
import { replay } from "../../src/events/replay.ts";
import { AgentRuntime, type RunHandle } from "../../src/runtime/agent-runtime.ts";
import { checkApprovalDecisions } from "../../src/runtime/check-approval-decisions.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { createFakePlanner, invariantProblems, reply, tool } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const quiet = {
  memory: false,
  reflector: noOpReflector,
  integrate: "template",
  backoff: { initialMs: 1, jitter: 0 },
  sleep: async () => undefined,
} as const;

/** A run that waits for `send` (s2, after the lookup s1) and `remove` (s3); s4 needs no approval; s5 replies. */
async function waitingRun(approvalTimeoutMs?: number): Promise<{
  run: RunHandle;
  registry: ReturnType<typeof createTestRegistry>["registry"];
  calls: ReturnType<typeof createTestRegistry>["calls"];
}> {
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
  const runtime = new AgentRuntime({
    planner,
    registry,
    ...quiet,
    policy: { send: { approval: "plan" }, remove: { approval: "plan" } },
    ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
  });
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

/** Edited arguments a person might send, for `send` (s2, which depends on s1) and `remove` (s3, which depends on nothing). */
const edits = [
  { to: "bob", text: "hi" },
  { to: 42 },
  { text: "no recipient" },
  { id: "r2" },
  { to: "bob", text: "{{s1.value}}" },
  { to: "bob", text: "{{s4.value}}" },
  { to: "{{context.user}}" },
  "bob",
  [1],
  null,
] as const;

const decisionArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ stepId: fc.constantFrom("s1", "s2", "s3", "s4", "s5", "s9"), approved: fc.constant(true as const) }),
  fc.record({
    stepId: fc.constantFrom("s2", "s3", "s4"),
    approved: fc.constant(true as const),
    arguments: fc.constantFrom(...edits),
  }),
  fc.record({
    stepId: fc.constantFrom("s2", "s3", "s4"),
    approved: fc.constant(false as const),
    reason: fc.constantFrom("no", "later", 5, undefined),
    replan: fc.boolean(),
  }),
  fc.record({
    stepId: fc.constantFrom("s2", "s3"),
    approved: fc.constant(false as const),
    arguments: fc.constantFrom(...edits),
  }),
  fc.record({ stepId: fc.constantFrom("s2", 2, undefined), approved: fc.constantFrom(true, "yes", 1, undefined) }),
  fc.constantFrom("approve s2", null, 7, ["s2"]),
);

/** How the oracle shows a value in a message: JSON, `undefined` for none. */
function shown(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/**
 * What checking decisions against the waiting run must give, worked out from
 * the documented rules alone: which steps wait (s2 `send` after s1, s3
 * `remove`), what each tool's schema requires, and which steps each may
 * reference. Either `ok` or the `code: message` of the first refusal.
 */
function expectedOutcome(input: unknown): string {
  const list = Array.isArray(input) ? input : [input];
  const waiting: Record<string, { tool: string; required: string; types: Record<string, string>; deps: string[] }> = {
    s2: { tool: "send", required: "to", types: { to: "string", text: "string" }, deps: ["s1"] },
    s3: { tool: "remove", required: "id", types: { id: "string" }, deps: [] },
  };
  const decided: string[] = [];
  for (const [index, decision] of list.entries()) {
    const where = Array.isArray(input) ? `Decision ${index}` : "The decision";
    if (typeof decision !== "object" || decision === null || Array.isArray(decision))
      return `invalid-approval: ${where} must be an object with stepId and approved, got ${shown(decision)}`;
    const { stepId, approved, reason, arguments: edited } = decision as Record<string, unknown>;
    if (typeof stepId !== "string") return `invalid-approval: ${where} needs a stepId string, got ${shown(stepId)}`;
    if (typeof approved !== "boolean")
      return `invalid-approval: ${where} for step "${stepId}" needs approved: true or false, got ${shown(approved)}`;
    if (decided.includes(stepId)) return `invalid-approval: Step "${stepId}" is decided twice in one call`;
    decided.push(stepId);
    if (!["s1", "s2", "s3", "s4", "s5"].includes(stepId)) return `invalid-approval: No step "${stepId}" in this run`;
    const gate = waiting[stepId];
    if (gate === undefined) return `invalid-approval: Step "${stepId}" does not need approval`;
    if (!approved) {
      if (reason !== undefined && typeof reason !== "string")
        return `invalid-approval: The reason for step "${stepId}" must be a string, got ${shown(reason)}`;
      continue;
    }
    if (edited === undefined) continue;
    if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
      return `invalid-argument: Edited arguments of step "${stepId}" must be an object, got ${shown(edited)} (/)`;
    }
    const fields = Object.entries(edited as Record<string, unknown>);
    for (const [key, value] of fields) {
      const referenced = typeof value === "string" ? /\{\{(\w+)\./u.exec(value)?.[1] : undefined;
      if (referenced !== undefined && referenced !== "context" && !gate.deps.includes(referenced)) {
        return `invalid-approval: Edited arguments of step "${stepId}" reference step "${referenced}", which it does not depend on (/${key})`;
      }
    }
    const problems: string[] = [];
    if (!fields.some(([key]) => key === gate.required))
      problems.push(`missing required argument "${gate.required}" (/${gate.required})`);
    for (const [key, value] of fields) {
      const exactReference = typeof value === "string" && /^\{\{[^}]+\}\}$/u.test(value);
      if (gate.types[key] === "string" && typeof value !== "string" && !exactReference)
        problems.push(`argument "${key}" is ${shown(value)}, expected string (/${key})`);
    }
    if (problems.length > 0)
      return `invalid-argument: Edited arguments of step "${stepId}" (tool "${gate.tool}"): ${problems.join("; ")}`;
  }
  return "ok";
}

describe("checkApprovalDecisions", () => {
  it("refuses and accepts what the documented rules say, live and against the log, with the same message", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(decisionArbitrary, fc.array(decisionArbitrary, { minLength: 1, maxLength: 3 })),
        async (decisions) => {
          const { run, registry } = await waitingRun();
          const expected = expectedOutcome(decisions);
          expect(
            outcome(() => checkApprovalDecisions(replay(run.events), decisions as ApprovalDecision[], registry)),
          ).toBe(expected);
          expect(outcome(() => run.approve(decisions as ApprovalDecision[]))).toBe(expected);
          run.abort();
          await run.done;
        },
      ),
      { numRuns: 150 },
    );
  });

  it("names the path of an invalid edit, refuses a step already decided or a run that ended, and invents no reason for a denial", async () => {
    const { run, registry } = await waitingRun();
    const state = replay(run.events);
    expect(
      outcome(() => checkApprovalDecisions(state, { stepId: "s2", approved: true, arguments: { to: 42 } }, registry)),
    ).toBe(`invalid-argument: Edited arguments of step "s2" (tool "send"): argument "to" is 42, expected string (/to)`);
    expect(checkApprovalDecisions(state, [{ stepId: "s3", approved: false }], registry)).toEqual([
      { stepId: "s3", approved: false },
    ]);
    run.approve({ stepId: "s2", approved: true });
    expect(outcome(() => checkApprovalDecisions(replay(run.events), { stepId: "s2", approved: true }, registry))).toBe(
      `invalid-approval: Step "s2" was already approved`,
    );
    run.approve({ stepId: "s3", approved: false, reason: "keep it" });
    const ended = await run.done;
    expect(outcome(() => checkApprovalDecisions(ended, { stepId: "s3", approved: true }, registry))).toMatch(
      /^invalid-approval: Run ".+" already ended/,
    );
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
