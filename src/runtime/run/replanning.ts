/**
 * A run's re-plans: the failures waiting for one, the call, and the patch.
 *
 * @module
 */
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import type { FailedStep, PlannerEvent, ReplanRequest } from "../../planner/planner-event.ts";
import { renamePatch } from "./apply-replan.ts";
import { type PlannerDone, plannerReading, readPlannerEvents } from "./read-planner-events.ts";
import type { RunCore } from "./run-core.ts";
import type { StepSource } from "./step-source.ts";
import type { StepEntry } from "./step-table.ts";
import { withTimeout } from "./with-timeout.ts";

/** What re-planning asks of the run besides its core. */
export interface ReplanningHooks {
  /** Whether a reply is already streaming (the plan is fixed). */
  readonly replyStreaming: boolean;
  /** Adds a step of the patch to the run, without deciding it; `undefined` when its id is taken. */
  register(step: PlanStep, source: StepSource): StepEntry | undefined;
  /** The patch is in the run: ask its approvals and decide its steps. */
  applied(source: StepSource, added: StepEntry[]): void;
}

/**
 * The re-plans of one run: a failed step (or one denied with a re-plan
 * asked for) waits here until the run has nothing running, then one call
 * asks the planner for a patch for what is left. The patch replaces the
 * pending steps and is a source of its own, under every rule of the
 * safety policy.
 *
 * @example
 * ```ts
 * const replanning = new Replanning(core, hooks);
 * replanning.add(entry);
 * if (replanning.due()) await replanning.run();
 * ```
 */
export class Replanning {
  readonly #host: RunCore;
  readonly #hooks: ReplanningHooks;
  /** Failed steps a re-plan has not dealt with yet. */
  #failures: StepEntry[] = [];

  /**
   * @param core - the run.
   * @param hooks - what else re-planning asks of it.
   */
  constructor(core: RunCore, hooks: ReplanningHooks) {
    this.#host = core;
    this.#hooks = hooks;
  }

  /** How many failures wait for a re-plan. */
  get pending(): number {
    return this.#failures.length;
  }

  /**
   * A failure for a re-plan to deal with.
   *
   * @param entry - the failed (or denied) step.
   */
  add(entry: StepEntry): void {
    this.#failures.push(entry);
  }

  /**
   * Steps someone else deals with (a planner that works in turns): no re-plan is asked for them.
   *
   * @param ids - step ids.
   * @returns whether any of them waited for a re-plan.
   */
  release(ids: readonly string[]): boolean {
    const before = this.#failures.length;
    this.#failures = this.#failures.filter((entry) => !ids.includes(entry.step.id));
    return this.#failures.length !== before;
  }

  /**
   * Whether a step that failed (or was denied with a re-plan asked for)
   * may still be replaced by a re-plan: not yet dealt with, and re-plans left.
   *
   * @param id - the step's id.
   * @returns the check.
   */
  mayReplace(id: string): boolean {
    const entry = this.#host.table.get(id);
    return (
      entry !== undefined &&
      !entry.handled &&
      (entry.status === "failed" || entry.skipCode === "denied") &&
      this.possible()
    );
  }

  /**
   * Whether a failure may still be answered by a re-plan.
   *
   * @returns the check.
   */
  possible(): boolean {
    return !this.#host.isEnded() && !this.#hooks.replyStreaming && this.#host.limits.replanAllowed();
  }

  /**
   * Whether a re-plan is due once nothing runs.
   *
   * @returns the check.
   */
  due(): boolean {
    return this.#failures.length > 0 && this.possible();
  }

  /** No re-plan will come: the failures are dealt with as they are. */
  giveUp(): void {
    if (this.#host.limits.replanBudgetSpent()) this.#host.limits.markHit();
    for (const entry of this.#failures) entry.handled = true;
    this.#failures = [];
  }

  /** Asks the planner for a patch, then applies it. */
  async run(): Promise<void> {
    const host = this.#host;
    const { table, limits, config, input } = host;
    const failed = this.#failures;
    this.#failures = [];
    const remaining = table.order.filter((entry) => entry.status === "pending");
    const attempt = limits.countReplan();
    limits.usage.modelCalls++;
    host.emit({ type: "plan-start", kind: "replan", query: input.query, attempt });
    let patch: { steps: PlanStep[]; clean: boolean; dropped?: number } | undefined;
    try {
      const request: ReplanRequest = {
        query: input.query,
        tools: config.registry,
        completed: table.completed(),
        failed: failed.map((entry): FailedStep => ({ step: entry.step, error: entry.error?.message ?? "failed" })),
        remaining: remaining.map((entry) => entry.step),
        signal: host.signal,
      };
      if (config.profile !== undefined) request.profile = config.profile;
      const planner = config.planner;
      if (planner.streamReplan !== undefined) {
        // A planner that streams its patch (LLMPlanner) reports its issues, repairs, model calls and whether it ended cleanly.
        limits.usage.modelCalls--;
        patch = await this.#readPatch(planner.streamReplan(request), attempt);
      } else {
        const totalMs = config.modelTimeouts.totalMs;
        const steps = await withTimeout(
          config.clock,
          totalMs,
          host.signal,
          `Re-planning timed out after ${totalMs} ms`,
          () => planner.replan(request),
        );
        patch = Array.isArray(steps) ? { steps, clean: true } : undefined;
      }
    } catch {
      patch = undefined;
    }
    if (host.isEnded()) return;
    for (const entry of failed) entry.handled = true;
    if (patch === undefined || patch.steps.length === 0) return;
    for (const entry of failed) entry.superseded = true;
    const stillPending = remaining.filter((entry) => entry.status === "pending");
    const { steps, renamed } = renamePatch(patch.steps, attempt, (id) => table.has(id));
    host.emit({
      type: "replan",
      attempt,
      failed: failed.map((entry) => entry.step.id),
      replaced: stillPending.map((entry) => entry.step.id),
      added: steps.flatMap((step) => (typeof step?.id === "string" ? [step.id] : [])),
      renamed,
    });
    for (const entry of stillPending) host.skip(entry, "replaced", `Re-plan ${attempt} replaced it`);
    // The patch is whole before any of it starts: readiness sees every new step, and the source's state.
    const source: StepSource = { kind: "replan", attempt, state: patch.clean ? "clean" : "unclean" };
    if (patch.dropped !== undefined) source.dropped = patch.dropped;
    const added: StepEntry[] = [];
    for (const step of steps) {
      const entry = this.#hooks.register(step, source);
      if (entry !== undefined) added.push(entry);
    }
    this.#hooks.applied(source, added);
  }

  /**
   * Reads a streamed patch: forwards issues and repairs, counts the model
   * calls and tokens of `done`, and returns its steps and whether it ended cleanly.
   *
   * @param events - the planner's patch events.
   * @param attempt - the re-plan number, for repair events.
   * @returns the patch, or `undefined` when the stream ended without `done`.
   */
  async #readPatch(
    events: AsyncIterable<PlannerEvent>,
    attempt: number,
  ): Promise<{ steps: PlanStep[]; clean: boolean; dropped: number } | undefined> {
    const host = this.#host;
    let done: PlannerDone | undefined;
    let dropped = 0;
    try {
      done = await readPlannerEvents(
        events,
        {
          issue: (issue, action) => {
            if (action === "dropped") dropped++;
            host.emit({ type: "step-issue", issue, action });
          },
          repair: () => host.emit({ type: "plan-start", kind: "repair", query: host.input.query, attempt }),
        },
        plannerReading(host, "Re-planning"),
      );
    } finally {
      if (done === undefined) host.limits.usage.modelCalls++;
      else host.limits.countPlanner(done.usage.modelCalls, done.usage);
    }
    return done === undefined ? undefined : { steps: done.steps, clean: done.clean, dropped };
  }
}
