/**
 * Usage counters and every budget check of a run.
 *
 * @module
 */

import type { RuntimeUsage } from "../../events/runtime-event.ts";
import type { PlanModelUsage } from "../../model/plan-model.ts";
import type { RuntimeBudget } from "../runtime-budget.ts";

/**
 * Counts what a run uses and answers whether a budget allows more. A refusal
 * is a message naming the budget; it also marks the run as stopped by a
 * budget (`hit`), which makes its end reason `budget`.
 *
 * @example
 * ```ts
 * const limits = new UsageLimits({ toolCalls: 2 }, 2);
 * limits.refuseToolCall(); // undefined, and the call is counted
 * ```
 */
export class UsageLimits {
  /** What the run used so far. */
  readonly usage: RuntimeUsage = {
    modelCalls: 0,
    toolCalls: 0,
    cacheHits: 0,
    replans: 0,
    inputTokens: 0,
    outputTokens: 0,
  };
  readonly #budget: RuntimeBudget;
  readonly #maxReplans: number;
  #stepsStarted = 0;
  #hit = false;

  /**
   * @param budget - the run's limits.
   * @param maxReplans - the re-plan limit of the runtime (apart from `budget.replans`).
   */
  constructor(budget: RuntimeBudget, maxReplans: number) {
    this.#budget = budget;
    this.#maxReplans = maxReplans;
  }

  /** Whether a budget stopped something: the run then ends with reason `budget`. */
  get hit(): boolean {
    return this.#hit;
  }

  /** Marks the run as stopped by a budget. */
  markHit(): void {
    this.#hit = true;
  }

  /**
   * Counts a step start, or refuses it.
   *
   * @returns `undefined` when the step may start, else why not.
   */
  refuseStep(): string | undefined {
    const refusal = this.#refuse(this.#budget.steps, this.#stepsStarted, "step");
    if (refusal === undefined) this.#stepsStarted++;
    return refusal;
  }

  /**
   * Counts a tool call, or refuses it.
   *
   * @returns `undefined` when the call may go ahead, else why not.
   */
  refuseToolCall(): string | undefined {
    const refusal = this.#refuse(this.#budget.toolCalls, this.usage.toolCalls, "tool call");
    if (refusal === undefined) this.usage.toolCalls++;
    return refusal;
  }

  /**
   * Counts a model call, or refuses it.
   *
   * @returns `undefined` when the call may go ahead, else why not.
   */
  refuseModelCall(): string | undefined {
    const refusal = this.modelCallRefusal();
    if (refusal === undefined) this.usage.modelCalls++;
    return refusal;
  }

  /**
   * Says why the model call budget allows no other call, without counting one.
   *
   * @returns `undefined` when a call is allowed, else why not.
   */
  modelCallRefusal(): string | undefined {
    return this.#refuse(this.#budget.modelCalls, this.usage.modelCalls, "model call");
  }

  /**
   * Whether the model call budget allows another call (counts nothing).
   *
   * @returns the check.
   */
  modelCallAllowed(): boolean {
    const limit = this.#budget.modelCalls;
    return limit === undefined || this.usage.modelCalls < limit;
  }

  /**
   * Whether another re-plan is allowed by `maxReplans` and the budgets.
   *
   * @returns the check.
   */
  replanAllowed(): boolean {
    return this.usage.replans < this.#maxReplans && !this.replanBudgetSpent();
  }

  /**
   * Whether a budget (not `maxReplans`) is what prevents another re-plan.
   *
   * @returns the check.
   */
  replanBudgetSpent(): boolean {
    if (this.usage.replans >= this.#maxReplans) return false;
    const limit = this.#budget.replans;
    return (limit !== undefined && this.usage.replans >= limit) || !this.modelCallAllowed();
  }

  /**
   * Counts a re-plan and its model call.
   *
   * @returns the re-plan's number.
   */
  countReplan(): number {
    this.usage.replans++;
    return this.usage.replans;
  }

  /**
   * Adds model calls and tokens a planner reported.
   *
   * @param modelCalls - calls made.
   * @param tokens - tokens reported.
   */
  countPlanner(modelCalls: number, tokens: PlanModelUsage | undefined): void {
    this.usage.modelCalls += modelCalls;
    this.countTokens(tokens);
  }

  /**
   * Adds tokens a model reported.
   *
   * @param tokens - the usage of a finish part.
   */
  countTokens(tokens: PlanModelUsage | undefined): void {
    this.usage.inputTokens += tokens?.inputTokens ?? 0;
    this.usage.outputTokens += tokens?.outputTokens ?? 0;
  }

  /** Counts a result served from a cache. */
  countCacheHit(): void {
    this.usage.cacheHits++;
  }

  /**
   * Refuses one more use once a limit is reached, and marks the refusal.
   *
   * @param limit - the budget, if there is one.
   * @param used - what was used so far.
   * @param what - the budget's name, for the message.
   * @returns `undefined` when the limit allows one more, else why not.
   */
  #refuse(limit: number | undefined, used: number, what: string): string | undefined {
    if (limit === undefined || used < limit) return undefined;
    this.#hit = true;
    return `The ${what} budget of ${limit} is spent`;
  }
}
