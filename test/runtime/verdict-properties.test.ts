/**
 * Property-based runs where everything answers at random: the tools fail
 * and recover, a reflector retries (with or without new arguments),
 * re-plans, aborts or talks nonsense, a person approves, edits or denies,
 * budgets run out and the caller aborts. Whatever they say, the run keeps
 * what the application allowed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import type { Reflection } from "../../src/planner/reflector.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import type { ToolPolicy } from "../../src/runtime/tool-policy.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { createFakePlanner, invariantProblems } from "./fake-planner.ts";

const toolSpec = fc.record(
  {
    readOnly: fc.boolean(),
    idempotent: fc.boolean(),
    retries: fc.nat(2),
    approval: fc.constantFrom("plan", "step", "function"),
  },
  { requiredKeys: [] },
);
const stepSpec = fc.record({ tool: fc.nat(3), refs: fc.array(fc.nat(9), { maxLength: 2 }), failures: fc.nat(2) });
const scenario = fc.record({
  tools: fc.array(toolSpec, { minLength: 4, maxLength: 4 }),
  steps: fc.array(stepSpec, { minLength: 1, maxLength: 6 }),
  verdicts: fc.array(fc.constantFrom("retry", "retry-edit", "new_plan", "abort", "nonsense", "throw"), {
    minLength: 1,
    maxLength: 2,
  }),
  decisions: fc.array(fc.constantFrom("approve", "edit", "deny", "deny-replan"), { minLength: 1, maxLength: 2 }),
  budget: fc.record({ toolCalls: fc.nat(6), steps: fc.nat(6) }, { requiredKeys: [] }),
  abortAt: fc.option(fc.nat(30), { nil: undefined }),
  eager: fc.constantFrom<"safe" | "all" | "none">("safe", "all", "none"),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** A verdict of the script, in turn. */
function verdictOf(kind: string): Reflection | undefined {
  if (kind === "retry") return { action: "retry", reason: "once more" };
  if (kind === "retry-edit") return { action: "retry", reason: "wider", arguments: { k: "reflected" } };
  if (kind === "new_plan" || kind === "abort") return { action: kind, reason: "no" };
  if (kind === "nonsense") return { action: "explode" } as unknown as Reflection;
  throw new Error("the reflector broke");
}

/** Runs one scenario; returns what it broke. */
async function check(spec: Scenario): Promise<string[]> {
  const failuresLeft = new Map<string, number>();
  const calls: { stepId: string; tool: number; args: Record<string, unknown> }[] = [];
  const registry = new ToolRegistry().register(
    spec.tools.map((tool, index) => ({
      name: `t${index}`,
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: tool.readOnly === true, idempotentHint: tool.idempotent === true },
      execute: async (args: Record<string, unknown>, { callId }: { callId: string }) => {
        const stepId = callId.split(":")[1] ?? "";
        calls.push({ stepId, tool: index, args: structuredClone(args) });
        await new Promise((resolve) => setTimeout(resolve, 0));
        const left = failuresLeft.get(stepId) ?? 0;
        failuresLeft.set(stepId, left - 1);
        if (left > 0) throw new Error("not now");
        return { v: stepId };
      },
    })),
  );
  const policy: Record<string, ToolPolicy> = {};
  spec.tools.forEach((tool, index) => {
    const rule: ToolPolicy = tool.retries === undefined ? {} : { retries: tool.retries };
    if (tool.approval !== undefined) rule.approval = tool.approval === "function" ? () => "step" : tool.approval;
    policy[`t${index}`] = rule;
  });
  const steps: PlanStep[] = spec.steps.map((step, index) => {
    failuresLeft.set(`s${index + 1}`, step.failures);
    const args: Record<string, unknown> = { k: `s${index + 1}` };
    if (index > 0) step.refs.forEach((ref, position) => (args[`in${position}`] = `{{s${(ref % index) + 1}.v}}`));
    return { id: `s${index + 1}`, type: "tool", name: `t${step.tool}`, arguments: args };
  });
  steps.push({ id: "reply", type: "reply", text: "done" });
  let verdicts = 0;
  const runtime = new AgentRuntime({
    planner: createFakePlanner({ steps, replan: () => [] }),
    registry,
    memory: false,
    integrate: "template",
    eager: spec.eager,
    retries: 0,
    policy,
    budget: spec.budget,
    reflector: { reflect: () => verdictOf(spec.verdicts[verdicts++ % spec.verdicts.length] ?? "throw") },
    backoff: { initialMs: 0, jitter: 0 },
    sleep: async () => undefined,
    approvalTimeoutMs: 20,
  });
  const run = runtime.run("go");
  const events: RuntimeEvent[] = [];
  const problems: string[] = [];
  let decisions = 0;
  for await (const event of run) {
    events.push(event);
    if (events.length === spec.abortAt) run.abort();
    // A run that keeps asking the same thing never ends: stop it and say so.
    if (events.length > 500) {
      problems.push(`the run did not end: ${events.slice(-4).map((last) => last.type)}`);
      break;
    }
    if (event.type !== "approval-request" || run.state.status === "ended") continue;
    for (const step of event.steps) {
      const kind = spec.decisions[decisions++ % spec.decisions.length];
      const decision =
        kind === "approve" || kind === "edit"
          ? { stepId: step.stepId, approved: true, ...(kind === "edit" ? { arguments: { k: "edited" } } : {}) }
          : { stepId: step.stepId, approved: false, replan: kind === "deny-replan" };
      // A listed step may have ended since (its dependency was refused by a budget): the run says so.
      const status = run.state.steps.find((entry) => entry.step.id === step.stepId)?.status;
      if (status === "planned" || status === "retrying") run.approve(decision);
    }
  }
  problems.push(...invariantProblems(events));
  const end = events.at(-1);
  const starts = events.filter(
    (event): event is Extract<RuntimeEvent, { type: "step-start" }> =>
      event.type === "step-start" && event.tool !== undefined && event.input !== undefined,
  );
  if (end?.type === "run-end") {
    if (end.usage.toolCalls !== calls.length) problems.push(`usage says ${end.usage.toolCalls} tool calls`);
    if (end.usage.toolCalls !== starts.filter((start) => !start.cached).length) problems.push("calls ≠ starts");
  }
  if (calls.length > (spec.budget.toolCalls ?? Number.POSITIVE_INFINITY)) problems.push("tool call budget passed");
  if (new Set(starts.map((start) => start.stepId)).size > (spec.budget.steps ?? Number.POSITIVE_INFINITY))
    problems.push("step budget passed");
  for (const call of calls) {
    const tool = spec.tools[call.tool] ?? {};
    const repeatable = tool.readOnly === true || tool.idempotent === true || (tool.retries ?? 0) > 0;
    const times = calls.filter((other) => other.stepId === call.stepId).length;
    if (times > 1 && !repeatable) problems.push(`${call.stepId} has side effects and ran ${times} times`);
  }
  for (const start of starts) {
    const tool = spec.tools[Number(start.tool?.slice(1))] ?? {};
    if (tool.approval === undefined) continue;
    // What starts is what a person approved last: as shown, or as they edited it.
    const before = events.slice(0, events.indexOf(start)).reverse();
    const last = before.find((event) => event.type === "approval-decision" && event.stepId === start.stepId);
    const request = before.find(
      (event) => event.type === "approval-request" && event.steps.some((step) => step.stepId === start.stepId),
    );
    const shown =
      request?.type === "approval-request"
        ? request.steps.find((step) => step.stepId === start.stepId)?.arguments
        : undefined;
    if (last?.type !== "approval-decision" || !last.approved) {
      problems.push(`${start.stepId} started unapproved`);
      continue;
    }
    // A plan approval covers what its references bring (each step's result is `{ v: id }`).
    const approved = JSON.stringify(last.arguments ?? shown).replace(/\{\{(s\d+)\.v\}\}/gu, "$1");
    if (approved !== JSON.stringify(start.input))
      problems.push(`${start.stepId} started with ${JSON.stringify(start.input)}, approved ${approved}`);
  }
  return problems;
}

describe("properties of runs whatever the reflector, the person and the budgets say", () => {
  it("it ends; usage counts the calls; a side effect runs once; a gated call runs only as approved; budgets hold", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (spec) => {
        expect(await check(spec)).toEqual([]);
      }),
      { numRuns: 1200 },
    );
  }, 60_000);
});
