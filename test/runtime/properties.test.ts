/**
 * Property-based runs over random DAG plans: random annotations, random
 * truncation of plans and re-plan patches, random failures and strange throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import type { Planner } from "../../src/planner/planner.ts";
import type { PlannerEvent, ReplanRequest } from "../../src/planner/planner-event.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { type ToolDefinition, ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, invariantProblems } from "./fake-planner.ts";

type Behaviour = "ok" | "fail" | "null" | "null-prototype" | "undefined" | "throwing-to-string" | "mutate-later";

interface ToolSpec {
  readOnly: boolean | undefined;
  idempotent: boolean | undefined;
  destructive: boolean | undefined;
}

interface StepSpec {
  tool: number;
  /** Earlier steps it references (indexes, taken modulo its position). */
  refs: number[];
  behaviour: Behaviour;
  async: boolean;
}

interface Scenario {
  tools: ToolSpec[];
  steps: StepSpec[];
  /** Where the plan is cut off (`steps.length` or more: not cut). */
  cut: number;
  patch: StepSpec[];
  patchClean: boolean;
  eager: "safe" | "none";
  replyRefs: number[];
}

const toolSpec = fc.record({
  readOnly: fc.option(fc.boolean(), { nil: undefined }),
  idempotent: fc.option(fc.boolean(), { nil: undefined }),
  destructive: fc.option(fc.boolean(), { nil: undefined }),
});
const stepSpec = fc.record({
  tool: fc.nat(3),
  refs: fc.array(fc.nat(20), { maxLength: 3 }),
  behaviour: fc.constantFrom<Behaviour>(
    "ok",
    "ok",
    "ok",
    "fail",
    "null",
    "null-prototype",
    "undefined",
    "throwing-to-string",
    "mutate-later",
  ),
  async: fc.boolean(),
});
const scenario: fc.Arbitrary<Scenario> = fc.record({
  tools: fc.array(toolSpec, { minLength: 4, maxLength: 4 }),
  steps: fc.array(stepSpec, { minLength: 1, maxLength: 10 }),
  cut: fc.nat(14),
  patch: fc.array(stepSpec, { maxLength: 4 }),
  patchClean: fc.boolean(),
  eager: fc.constantFrom<"safe" | "none">("safe", "none"),
  replyRefs: fc.array(fc.nat(20), { maxLength: 2 }),
});

/** What one throw looks like. */
function thrown(behaviour: Behaviour): unknown {
  switch (behaviour) {
    case "null":
      return null;
    case "null-prototype":
      return Object.create(null);
    case "undefined":
      return undefined;
    case "throwing-to-string":
      return {
        toString() {
          throw new Error("no");
        },
        toJSON() {
          throw new Error("no");
        },
      };
    default:
      return new Error("the tool failed");
  }
}

/** Runs one scenario and checks every invariant; returns the problems. */
async function check(spec: Scenario): Promise<string[]> {
  const returned = new Map<string, string>();
  const behaviourOf = new Map<string, StepSpec>();
  const definitions: ToolDefinition[] = spec.tools.map((tool, index) => {
    const annotations: Record<string, boolean> = {};
    if (tool.readOnly !== undefined) annotations["readOnlyHint"] = tool.readOnly;
    if (tool.idempotent !== undefined) annotations["idempotentHint"] = tool.idempotent;
    if (tool.destructive !== undefined) annotations["destructiveHint"] = tool.destructive;
    return {
      name: `t${index}`,
      inputSchema: { type: "object" },
      annotations,
      execute: async (args: Record<string, unknown>, { callId }: { callId: string }) => {
        const stepId = callId.split(":")[1] ?? "";
        const step = behaviourOf.get(stepId);
        if (step?.async === true) await new Promise((resolve) => setTimeout(resolve, 0));
        // Mutating the input must not reach history.
        args["mutated"] = true;
        if (step !== undefined && step.behaviour !== "ok" && step.behaviour !== "mutate-later")
          throw thrown(step.behaviour);
        const result = { step: stepId, items: [1, 2, 3] };
        returned.set(stepId, JSON.stringify(result));
        if (step?.behaviour === "mutate-later") {
          setTimeout(() => {
            result.items.push(4);
          }, 0);
        }
        return result;
      },
    };
  });
  const registry = new ToolRegistry().register(definitions);
  const makeSteps = (specs: StepSpec[], prefix: string, earlier: string[]): PlanStep[] =>
    specs.map((step, index) => {
      const id = `${prefix}${index + 1}`;
      behaviourOf.set(id, step);
      const pool = [...earlier, ...specs.slice(0, index).map((_, before) => `${prefix}${before + 1}`)];
      const refs = pool.length === 0 ? [] : [...new Set(step.refs.map((ref) => pool[ref % pool.length] as string))];
      const args: Record<string, unknown> = {};
      refs.forEach((ref, position) => {
        args[`in${position}`] = `{{${ref}.items}}`;
      });
      return { id, type: "tool", name: `t${step.tool}`, arguments: args };
    });
  const planSteps = makeSteps(spec.steps, "s", []);
  const pool = planSteps.map((step) => step.id);
  const replyText = spec.replyRefs.map((ref) => `{{${pool[ref % pool.length] as string}.items}}`).join(" ") || "done";
  const all: PlanStep[] = [...planSteps, { id: "reply", type: "reply", text: replyText }];
  const cut = spec.cut >= all.length ? undefined : spec.cut;
  const streamed = cut === undefined ? all : all.slice(0, cut);
  const patchLog: { clean: boolean; ids: string[] }[] = [];
  const planner: Planner & { streamReplan(request: ReplanRequest): AsyncIterable<PlannerEvent> } = {
    async *stream() {
      for (const [index, step] of streamed.entries()) {
        yield { type: "step", step, index };
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      yield {
        type: "done",
        steps: streamed,
        clean: cut === undefined,
        finishReason: cut === undefined ? "stop" : "length",
        fallback: false,
        usage: { modelCalls: 1 },
      };
    },
    replan: async () => [],
    async *streamReplan(request) {
      const completed = request.completed.map((entry) => entry.step.id);
      const patch = makeSteps(spec.patch, `p${patchLog.length + 1}_`, completed);
      patch.push({ id: `p${patchLog.length + 1}_reply`, type: "reply", text: "patched" });
      patchLog.push({ clean: spec.patchClean, ids: patch.map((step) => step.id) });
      yield {
        type: "done",
        steps: patch,
        clean: spec.patchClean,
        finishReason: spec.patchClean ? "stop" : "length",
        fallback: false,
        usage: { modelCalls: 1 },
      };
    },
  };
  const runtime = new AgentRuntime({
    planner,
    registry,
    memory: false,
    reflector: noOpReflector,
    eager: spec.eager,
    retries: 1,
    backoff: { initialMs: 0, jitter: 0 },
    sleep: async () => undefined,
    maxReplans: 1,
  });
  const run = runtime.run("go");
  const events: RuntimeEvent[] = await collect(run);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const problems = invariantProblems(events);
  if (events.filter((event) => event.type === "plan-end").length !== 1)
    problems.push("plan-end is not emitted exactly once");

  // Every step that is not read-only starts only after its source finished cleanly.
  const readOnly = (name: string): boolean => spec.tools[Number(name.slice(1))]?.readOnly === true;
  const planEnd = events.findIndex((event) => event.type === "plan-end");
  const planClean = events[planEnd]?.type === "plan-end" && (events[planEnd] as { clean: boolean }).clean;
  const sourceEnd = new Map<string, { at: number; clean: boolean }>();
  for (const step of all) sourceEnd.set(step.id, { at: planEnd, clean: planClean });
  events.forEach((event, position) => {
    if (event.type !== "replan") return;
    const log = patchLog[event.attempt - 1];
    for (const id of event.added) sourceEnd.set(id, { at: position, clean: log?.clean ?? false });
  });
  const nameOf = new Map(
    events.flatMap((event) =>
      event.type === "step-planned" && event.step.type === "tool" ? [[event.step.id, event.step.name] as const] : [],
    ),
  );
  events.forEach((event, position) => {
    if (event.type !== "step-start" || event.tool === undefined || readOnly(event.tool)) return;
    const source = sourceEnd.get(event.stepId);
    if (source === undefined || !source.clean || position < source.at)
      problems.push(
        `side-effecting step ${event.stepId} (${nameOf.get(event.stepId) ?? "?"}) started before its source finished cleanly`,
      );
  });

  // Results in events are what the tool returned when its step ended, and stay so.
  for (const event of events) {
    if (event.type === "step-end" && event.stepId !== "reply" && returned.has(event.stepId) && !event.cached) {
      if (JSON.stringify(event.result) !== returned.get(event.stepId))
        problems.push(`the result of ${event.stepId} changed after it ended`);
    }
    if (
      event.type === "step-error" &&
      (typeof event.error.message !== "string" ||
        event.error.message === "" ||
        event.error.message.startsWith("Internal error"))
    ) {
      problems.push(`step ${event.stepId} failed without a readable message`);
    }
  }
  const end = events.at(-1);
  if (end?.type === "run-end" && end.error?.message.startsWith("Internal error") === true)
    problems.push(`the run failed internally: ${end.error.message}`);
  return problems;
}

describe("properties of runs over random plans", () => {
  it("no side effect before a clean source, one terminal event per step, run-end last, frozen results, readable errors", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (spec) => {
        expect(await check(spec)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
