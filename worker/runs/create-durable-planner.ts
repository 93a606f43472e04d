/**
 * A planner whose plans and re-plans are durable steps.
 *
 * @module
 */

import type { PlanStep, ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import type { Planner, PlannerEvent, ReplanRequest } from "../../src/runtime.ts";
import type { DurableStep } from "./durable-step.ts";
import { streamStoredStep } from "./stream-stored-step.ts";

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

/**
 * Planning: a model call, retried twice after a failure that came before
 * any step reached the run. An attempt's limit is past the runtime's own
 * bound on a silent planner (`modelTimeouts.totalMs`, five minutes), which
 * reports first.
 */
const planConfig = { retries: { limit: 2, delay: 1000, backoff: "exponential" }, timeout: 600_000 } as const;

/** Re-planning: a model call, retried twice after a failure, each attempt limited to two minutes. */
const replanConfig = { retries: { limit: 2, delay: 1000, backoff: "exponential" }, timeout: 120_000 } as const;

/**
 * What the engine stores for the plan: the planner's events in the order
 * the run saw them, and the error that ended the stream early, if any. A
 * plan stored before the run started steps while the plan streamed is the
 * bare list of events.
 */
type StoredPlan = PlannerEvent[] | { events: PlannerEvent[]; error: string };

/** Why a planner that works in turns cannot run inside the `plan` step. */
const turnsNeedCreatePlanner =
  "The run's planner works in turns (native tool calls): a durable run needs it as RunSetup.createPlanner, " +
  "which records each turn as a step of its own";

/** Events the run may see while the plan step runs: the steps (a read-only one may start at once), issues, repairs. */
function isLive(event: PlannerEvent): boolean {
  return event.type === "step" || event.type === "issue" || event.type === "repair";
}

/**
 * Checks the plan of a finished planner stream as a whole against the tools
 * (`validatePlan`). When it fails, the problems are reported as
 * dropped-step issues and the plan is marked unclean, so the runtime's
 * safety policy holds back its side-effecting steps (the steps already
 * reached the run while the plan streamed; a read-only one may have run).
 *
 * @param events - the planner's events, `done` last.
 * @param registry - the tools.
 * @param maxSteps - the plan's step limit.
 * @returns the events, with the issues before an unclean `done`.
 */
function validateEvents(events: PlannerEvent[], registry: ToolRegistry, maxSteps: number | undefined): PlannerEvent[] {
  const done = events.find((event) => event.type === "done");
  if (done === undefined) return events;
  const checked = validatePlan(done.steps, registry, maxSteps === undefined ? {} : { maxSteps });
  if (checked.issues.length === 0) return events;
  return [
    ...events.filter((event) => event.type !== "done"),
    ...checked.issues.map((issue): PlannerEvent => ({ type: "issue", issue, action: "dropped" })),
    { ...done, steps: checked.steps, clean: false },
  ];
}

/** A copy that is plain JSON: what the engine stores, so the run sees the same live and on replay. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Wraps a planner for a Workflow. `stream` runs the planner stream inside
 * one durable step, `plan`, and hands the run each step (and issue, and
 * repair) the moment the planner yields it, while the step still runs — so
 * the runtime starts a read-only step while the model still writes the
 * plan, each as a durable step of its own. Everything that lets the rest
 * of the plan run — a turn's end, the final `done` — reaches the run only
 * once the engine stored the plan: a side-effecting step never starts
 * before the plan it belongs to is stored. The engine stores the events in
 * the order the run saw them, and an execution that resumes the run after a
 * restart gets them from storage without asking the model again. A restart
 * before the plan was stored runs the `plan` step again; the reads it had
 * started come back under the same step names, from storage.
 *
 * A failure before any step reached the run is retried by the engine; one
 * after is stored with the events before it (the run saw them) and thrown
 * again after them, on replay too. Each re-plan is the durable step
 * `replan-<n>`, complete before its steps join the run.
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
      // What the run saw while the plan step ran, in order.
      const live: PlannerEvent[] = [];
      let attempts = 0;
      yield* streamStoredStep(
        (emit) =>
          step.do("plan", planConfig, async (): Promise<StoredPlan> => {
            const attempt = ++attempts;
            // An attempt after one that reached the run (the engine timed it out) cannot stream again.
            if (live.length > 0) return { events: [...live], error: "The plan was cut off" };
            const held: PlannerEvent[] = [];
            try {
              for await (const event of planner.stream(request)) {
                if (attempt !== attempts) break;
                // Its next turn would wait, inside this step, for steps that wait for this step: it could never end.
                if (event.type === "turn-end") throw new Error(turnsNeedCreatePlanner);
                const copy = plain(event);
                if (!isLive(copy)) held.push(copy);
                else {
                  live.push(copy);
                  emit(copy);
                }
              }
            } catch (error) {
              if (live.length === 0) throw error;
              return { events: [...live, ...held], error: error instanceof Error ? error.message : String(error) };
            }
            return validateEvents([...live, ...held], registry, maxSteps);
          }),
        // A plan that ended is stored as its events; one cut off by a failure, with the failure.
        (stored) => (Array.isArray(stored) ? { items: stored } : { items: stored.events, error: stored.error }),
      );
    },
    async replan(request) {
      replans++;
      return step.do(`replan-${replans}`, replanConfig, async () => plain(await planner.replan(request)));
    },
    // A planner that streams its patch reports its issues, model calls and tokens: its events are the stored record.
    ...(planner.streamReplan === undefined
      ? {}
      : {
          async *streamReplan(request: ReplanRequest): AsyncGenerator<PlannerEvent, void> {
            const streamReplan = planner.streamReplan?.bind(planner);
            if (streamReplan === undefined) return;
            replans++;
            const stored = await step.do(`replan-${replans}`, replanConfig, async (): Promise<PlannerEvent[]> => {
              const events: PlannerEvent[] = [];
              for await (const event of streamReplan(request)) events.push(plain(event));
              return events;
            });
            yield* patchEvents(stored);
          },
        }),
  };
}

/**
 * The events of a stored re-plan. A re-plan stored as its steps alone (by an
 * earlier version) reads as those steps and a clean `done` with no usage.
 *
 * @param stored - the `replan-<n>` step's value.
 * @returns the planner events.
 */
function patchEvents(stored: readonly (PlannerEvent | PlanStep)[]): PlannerEvent[] {
  const isEvent = (item: PlannerEvent | PlanStep): item is PlannerEvent =>
    item.type !== "tool" && item.type !== "reply" && item.type !== "llm";
  if (stored.every(isEvent)) return [...stored];
  const steps = stored.filter((item): item is PlanStep => !isEvent(item));
  return [
    ...steps.map((step, index): PlannerEvent => ({ type: "step", step, index })),
    {
      type: "done",
      steps,
      clean: true,
      finishReason: "stop",
      fallback: false,
      usage: { modelCalls: 1, inputTokens: 0, outputTokens: 0 },
    },
  ];
}
