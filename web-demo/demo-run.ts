/**
 * A run the demo page follows and decides on, in either mode.
 *
 * @module
 */
import type { ApprovalDecision } from "../src/index.ts";
import type { DemoEvent } from "./demo-event.ts";

/**
 * A run started by the page: its events (`model` first), and how to
 * answer its `approval-request` events. Stopping goes through the signal
 * the run was started with.
 *
 * @example
 * ```ts
 * const run = runOnWorker("Save a note titled groceries with the text milk", { signal });
 * for await (const event of run.events) {
 *   if (event.type === "approval-request") await run.approve(event.steps.map((step) => ({ stepId: step.stepId, approved: true })));
 * }
 * ```
 */
export interface DemoRun {
  /** The run's events, in order; the last is `run-end` (or an `error` event). */
  events: AsyncIterable<DemoEvent>;
  /**
   * Decides steps that wait for approval, all or nothing.
   *
   * @param decisions - one decision per step.
   * @returns when the run has taken them.
   * @throws Error with a message for people (naming the step and the path of an argument) when they are refused.
   */
  approve(decisions: ApprovalDecision[]): Promise<void>;
}
