/**
 * A planner whose plans and re-plans are durable steps.
 *
 * @module
 */

import type { PlanStep, ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import type { Planner, PlannerEvent } from "../../src/runtime.ts";
import type { DurableStep } from "./durable-step.ts";

/** Options of {@link createDurablePlanner}. */
export interface DurablePlannerOptions {
  /** The planner that does the work (an `LLMPlanner`). */
  planner: Planner;
  /** The Workflow's steps. */
  step: DurableStep;
  /** The tools, to validate the plan against. */
  registry: ToolRegistry;
  /** The most steps a plan may have. */
  maxSteps?: number;
}

/** Planning and re-planning: model calls, retried twice after a failure, each attempt limited to two minutes. */
const planConfig = { retries: { limit: 2, delay: 1000, backoff: "exponential" }, timeout: 120_000 } as const;

/**
 * Checks the plan of a finished planner stream as a whole against the tools
 * (`validatePlan`). A plan that fails is kept to its valid steps, each
 * problem is reported as a dropped-step issue, and it is marked unclean, so
 * the runtime's safety policy holds back its side-effecting steps.
 *
 * @param events - the planner's events, `done` last.
 * @param registry - the tools.
 * @param maxSteps - the plan's step limit.
 * @returns the events to replay.
 */
function validateEvents(events: PlannerEvent[], registry: ToolRegistry, maxSteps: number | undefined): PlannerEvent[] {
  const done = events.find((event) => event.type === "done");
  if (done === undefined) return events;
  const checked = validatePlan(done.steps, registry, maxSteps === undefined ? {} : { maxSteps });
  if (checked.issues.length === 0) return events;
  const kept = new Set(checked.steps.map((step) => step.id));
  return [
    ...events.filter((event) => event.type !== "done" && (event.type !== "step" || kept.has(event.step.id))),
    ...checked.issues.map((issue): PlannerEvent => ({ type: "issue", issue, action: "dropped" })),
    { ...done, steps: checked.steps, clean: false },
  ];
}

/**
 * Wraps a planner for a Workflow: `stream` runs the whole planner stream
 * inside one durable step named `plan`, validates the plan, and stores the
 * planner's events, which it then replays to the runtime — so an execution
 * that resumes the run after a restart gets the same plan without asking
 * the model again. Each re-plan is the durable step `replan-<n>`. The plan
 * is complete before any step starts (a durable run does not overlap
 * planning and execution).
 *
 * @param options - the planner, the Workflow's steps, the tools and `maxSteps`.
 * @returns the durable planner.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner: createDurablePlanner({ planner, step, registry }), registry });
 * ```
 */
export function createDurablePlanner(options: DurablePlannerOptions): Planner {
  const { planner, step, registry, maxSteps } = options;
  let replans = 0;
  return {
    async *stream(request) {
      const events = await step.do("plan", planConfig, async () => {
        const collected: PlannerEvent[] = [];
        for await (const event of planner.stream(request)) collected.push(event);
        // Plain JSON: the engine stores it, and a replay must see exactly what the first execution saw.
        return JSON.parse(JSON.stringify(validateEvents(collected, registry, maxSteps))) as PlannerEvent[];
      });
      yield* events;
    },
    async replan(request) {
      replans++;
      return step.do(
        `replan-${replans}`,
        planConfig,
        async () => JSON.parse(JSON.stringify(await planner.replan(request))) as PlanStep[],
      );
    },
  };
}
