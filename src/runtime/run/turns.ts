/**
 * The turns of a planner that plans in model turns: the source of each
 * turn's steps, and the outcomes the planner waits for.
 *
 * @module
 */

import type { RuntimeEvent } from "../../events/runtime-event.ts";
import type { StepOutcome } from "../../planner/planner-event.ts";
import { type RuntimeClock, systemClock } from "../../shared/runtime-clock.ts";
import type { StepSource } from "./step-source.ts";

/**
 * The plan's sources and the outcomes of its steps. A planner that works
 * in turns (native tool calls) ends a turn with `turn-end`: its source ends
 * (clean or not) and the next turn's steps get a new one. It may wait for
 * the outcomes of steps (`PlanRequest.awaitOutcomes`); each is recorded
 * from the step's terminal event.
 *
 * @example
 * ```ts
 * const turns = new Turns();
 * const ended = turns.next(true);
 * const outcomes = await turns.outcomesOf(["s1"]);
 * ```
 */
export class Turns {
  /** The source of the plan's steps now. */
  #source: StepSource = { kind: "plan", attempt: 1, state: "streaming" };
  /** Outcomes of ended steps. */
  readonly #outcomes = new Map<string, StepOutcome>();
  /** Planners waiting for outcomes: the ids, and what to call when all have one. */
  #waiters: { ids: readonly string[]; resolve: (outcomes: StepOutcome[]) => void }[] = [];
  /** When the planner last got the outcomes it waited for. */
  #answeredAt = Number.NEGATIVE_INFINITY;
  readonly #clock: Pick<RuntimeClock, "now">;

  /**
   * @param clock - tells when the planner got its outcomes.
   */
  constructor(clock: Pick<RuntimeClock, "now"> = systemClock) {
    this.#clock = clock;
  }

  /** The source of the plan's steps now. */
  get source(): StepSource {
    return this.#source;
  }

  /**
   * When the planner was last busy waiting for outcomes: now while it waits.
   *
   * @param now - the time now.
   * @returns the time.
   */
  busyAt(now: number): number {
    return this.#waiters.length > 0 ? now : this.#answeredAt;
  }

  /**
   * Ends the current turn's source and opens the next one.
   *
   * @param clean - whether the turn finished cleanly and validated.
   * @returns the source that ended.
   */
  next(clean: boolean): StepSource {
    const ended = this.#source;
    ended.state = clean && ended.lost !== true ? "clean" : "unclean";
    this.#source = { kind: "plan", attempt: ended.attempt + 1, state: "streaming" };
    return ended;
  }

  /**
   * Resolves once every given step has an outcome (or the run ended).
   *
   * @param ids - step ids.
   * @param ended - whether the run already ended.
   * @returns the outcomes, in the order of `ids`.
   */
  outcomesOf(ids: readonly string[], ended: boolean): Promise<StepOutcome[]> {
    return new Promise((resolve) => {
      this.#waiters.push({ ids, resolve });
      this.deliver(ended);
    });
  }

  /**
   * Records a step's outcome from its terminal event, and answers the
   * planners it completes.
   *
   * @param event - any event.
   * @param ended - whether the run ended.
   */
  record(event: RuntimeEvent, ended: boolean): void {
    if (event.type === "step-end")
      this.#outcomes.set(event.stepId, { id: event.stepId, status: "succeeded", result: event.result });
    else if (event.type === "step-error" && event.final)
      this.#outcomes.set(event.stepId, { id: event.stepId, status: "failed", error: event.error.message });
    else if (event.type === "step-skipped")
      this.#outcomes.set(event.stepId, { id: event.stepId, status: "skipped", reason: event.reason });
    else if (event.type !== "run-end") return;
    this.deliver(ended);
  }

  /**
   * Answers the planners whose steps have all ended (all of them once the run ended).
   *
   * @param ended - whether the run ended.
   */
  deliver(ended: boolean): void {
    if (this.#waiters.length === 0) return;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!ended && !waiter.ids.every((id) => this.#outcomes.has(id))) return true;
      this.#answeredAt = this.#clock.now();
      waiter.resolve(
        waiter.ids.map((id) => this.#outcomes.get(id) ?? { id, status: "skipped", reason: "The run ended" }),
      );
      return false;
    });
  }
}
