/**
 * A run's plan: the planner's stream read into the run, source by source,
 * and `plan-end`.
 *
 * @module
 */

import type { RuntimeErrorInfo, RuntimeEvent } from "../../events/runtime-event.ts";
import { toErrorInfo } from "../../events/to-error-info.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import type { PlannerEvent, PlannerUsage, PlanRequest, ReplyDraft, StepOutcome } from "../../planner/planner-event.ts";
import { type PlannerDone, plannerReading, readPlannerEvents } from "./read-planner-events.ts";
import type { RunCore } from "./run-core.ts";
import type { StepSource } from "./step-source.ts";
import { Turns } from "./turns.ts";

/** What planning asks of the run besides its core. */
export interface PlanningHooks {
  /** The planner's context: earlier turns, the run context, memory. */
  context(): Promise<string>;
  /** A validated step arrived: it joins the run, and starts when it is ready. */
  add(step: PlanStep, source: StepSource): void;
  /** The model is writing the reply step. */
  draft(draft: ReplyDraft): void;
  /** A source ended (a turn, or the plan): its approvals are asked and its waiting steps decided; `missing` ids can no longer come. */
  sourceEnded(source: StepSource, missing: readonly string[]): void;
  /** The planner will hear of these steps' outcomes: no re-plan is asked for their failures. */
  release(ids: readonly string[]): void;
  /** The plan is complete: the run executes what is left. */
  executing(): void;
}

/**
 * The plan of one run. It reads the planner's events into the run — each
 * step as it arrives, each issue, each repair, each turn's end — and ends
 * the plan's source with `plan-end`, clean only when the planner said so
 * and nothing went wrong.
 *
 * @example
 * ```ts
 * const planning = new Planning(core, hooks);
 * await planning.run();
 * ```
 */
export class Planning {
  readonly #host: RunCore;
  readonly #hooks: PlanningHooks;
  readonly #turns: Turns;
  #ended = false;
  #issues = 0;
  #error: RuntimeErrorInfo | undefined;
  #iterator: AsyncIterator<PlannerEvent> | undefined;
  /** The planner's usage at the end of its last finished turn. */
  #turnsUsage: PlannerUsage = { modelCalls: 0 };

  /**
   * @param core - the run.
   * @param hooks - what else planning asks of it.
   */
  constructor(core: RunCore, hooks: PlanningHooks) {
    this.#host = core;
    this.#hooks = hooks;
    this.#turns = new Turns(core.config.clock);
  }

  /** Whether `plan-end` was emitted. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The source of the plan's steps now. */
  get source(): StepSource {
    return this.#turns.source;
  }

  /** Issues the plan source has had (a repair may follow them, which may replace the reply). */
  get issues(): number {
    return this.#issues;
  }

  /** The planner's error, if it failed. */
  get error(): RuntimeErrorInfo | undefined {
    return this.#error;
  }

  /** Reads memory, streams the plan and adds its steps. */
  async run(): Promise<void> {
    const host = this.#host;
    const hooks = this.#hooks;
    const { config, input } = host;
    const context = await hooks.context();
    if (host.isEnded()) return;
    host.emit({ type: "plan-start", kind: "plan", query: input.query, attempt: 1 });
    // A planner with a model is calling it while its steps stream: the call counts against the budget from now on.
    const reserved = config.planner.model === undefined ? 0 : 1;
    host.limits.usage.modelCalls += reserved;
    // The usage the run counted: each turn's as it ends, so a run that ends before the planner's `done` keeps it.
    let counted: PlannerUsage = { modelCalls: reserved };
    const count = (usage: PlannerUsage): void => {
      host.limits.countPlanner(usage.modelCalls - counted.modelCalls, {
        inputTokens: (usage.inputTokens ?? 0) - (counted.inputTokens ?? 0),
        outputTokens: (usage.outputTokens ?? 0) - (counted.outputTokens ?? 0),
      });
      counted = { ...usage, modelCalls: Math.max(usage.modelCalls, counted.modelCalls) };
    };
    let done: PlannerDone | undefined;
    let repairs = 0;
    // Steps handed over once, even those the run dropped: `done` lists them again.
    const streamed = new Set<unknown>();
    try {
      const request: PlanRequest = {
        query: input.query,
        tools: config.registry,
        signal: host.signal,
        awaitOutcomes: (ids) => this.#awaitOutcomes(ids),
        onReplyDraft: (draft) => hooks.draft(draft),
        onUsage: (usage) => {
          if (host.isEnded()) return;
          this.#turnsUsage = usage;
          count(usage);
        },
      };
      if (config.profile !== undefined) request.profile = config.profile;
      if (context !== "") request.context = context;
      done = await readPlannerEvents(
        config.planner.stream(request),
        {
          step: (step) => {
            streamed.add(step?.id);
            hooks.add(step, this.#turns.source);
          },
          issue: (issue, action) => {
            this.#issues++;
            if (action === "dropped") this.#turns.source.dropped = (this.#turns.source.dropped ?? 0) + 1;
            host.emit({ type: "step-issue", issue, action });
          },
          repair: () => host.emit({ type: "plan-start", kind: "repair", query: input.query, attempt: ++repairs }),
          turnEnd: (clean) => hooks.sourceEnded(this.#turns.next(clean), []),
        },
        {
          ...plannerReading(host, "Planning"),
          onIterator: (iterator) => (this.#iterator = iterator),
          busyAt: (now) => this.#turns.busyAt(now),
        },
      );
    } catch (error) {
      this.#error = toErrorInfo(error, "model-error");
    }
    if (host.isEnded()) return;
    // A planner that only reports its steps in `done` still gets them run.
    for (const step of done?.steps ?? []) if (!streamed.has(step?.id)) hooks.add(step, this.#turns.source);
    // A planner that failed made one more call than its finished turns.
    const turns = this.#turnsUsage;
    const usage = done?.usage ?? (this.#error === undefined ? turns : { ...turns, modelCalls: turns.modelCalls + 1 });
    count(usage);
    this.#end(done, this.#error, usage);
    hooks.executing();
    // Ids that never arrived: their dependents can be decided now.
    hooks.sourceEnded(this.#turns.source, host.table.missingIds());
  }

  /**
   * The run stopped: `plan-end` with the error if it was not emitted, and the planner is closed.
   *
   * @param error - why the run stopped.
   */
  stop(error: RuntimeErrorInfo): void {
    if (!this.#ended) this.#end(undefined, error, this.#turnsUsage);
    const iterator = this.#iterator;
    if (iterator?.return === undefined) return;
    try {
      void Promise.resolve(iterator.return()).catch(() => undefined);
    } catch {
      // A planner whose iterator cannot be closed is left to its signal.
    }
  }

  /**
   * Records a step's outcome from its terminal event, for a planner waiting for it.
   *
   * @param event - any event.
   */
  record(event: RuntimeEvent): void {
    this.#turns.record(event, this.#host.isEnded());
  }

  /**
   * Resolves once every given step has ended, with what became of each.
   * The planner hears of the failures among them, so they are dealt with:
   * no re-plan is asked for them, their dependents are skipped, and they do
   * not fail the run (the model answers them).
   *
   * @param ids - step ids.
   * @returns the outcomes, in the order of `ids`.
   */
  #awaitOutcomes(ids: readonly string[]): Promise<StepOutcome[]> {
    for (const id of ids) {
      const entry = this.#host.table.get(id);
      if (entry !== undefined) {
        entry.handled = true;
        entry.heard = true;
      }
    }
    this.#hooks.release(ids);
    return this.#turns.outcomesOf(ids, this.#host.isEnded());
  }

  /**
   * Ends the plan source and emits `plan-end`.
   *
   * @param done - the planner's `done` event, if it came.
   * @param error - the planner's (or the run's) error.
   * @param usage - the planner's model calls and tokens.
   */
  #end(done: PlannerDone | undefined, error: RuntimeErrorInfo | undefined, usage: PlannerUsage): void {
    this.#ended = true;
    const clean = error === undefined && done?.clean === true && this.#turns.source.lost !== true;
    this.#turns.source.state = clean ? "clean" : "unclean";
    this.#host.emit({
      type: "plan-end",
      clean,
      finishReason: error !== undefined ? "error" : (done?.finishReason ?? "missing"),
      fallback: done?.fallback ?? false,
      steps: this.#host.table.order.length,
      modelCalls: usage.modelCalls,
      inputTokens: usage.inputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      ...(error === undefined ? {} : { error }),
    });
  }
}
