/**
 * The words of a step dropped for the step limit.
 *
 * @module
 */
import { countOf } from "../shared/count-of.ts";

/**
 * Says that a step or call passed the step limit, whose last place the reply keeps.
 *
 * @param maxSteps - the step limit.
 * @returns the predicate of the message, after its subject (`Step "s7"`, `Call "s7" to "search"`).
 *
 * @example
 * ```ts
 * `Step "s7" ${keptForReply(6)}`; // 'Step "s7" exceeds the limit of 6 steps (the last place is kept for the reply)'
 * ```
 */
export function keptForReply(maxSteps: number): string {
  return `exceeds the limit of ${countOf(maxSteps, "step")} (the last place is kept for the reply)`;
}
