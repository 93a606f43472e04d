/**
 * The events that end a run that stopped without ending itself.
 *
 * @module
 */

import type { RunEndReason, RuntimeErrorInfo } from "../../src/events.ts";
import { replay } from "../../src/events.ts";
import type { RuntimeEvent } from "../../src/index.ts";

/**
 * Builds the events that close a run whose execution stopped without its
 * `run-end` — cancelled, its Workflow instance terminated or errored, or
 * its session object restarted under it — keeping the runtime's promise
 * that every planned step gets exactly one terminal event and `run-end`
 * comes last. The log is replayed with the runtime's own reducer: a step
 * that never started gets `step-skipped` (`aborted`), a step that was
 * running gets a final `step-error` carrying `error`, then `run-end` with
 * the usage so far. A log that already ended gets nothing. The closing
 * events are stamped with the time the run has lived (`elapsedMs`), never
 * earlier than its last logged event.
 *
 * @param events - the run's logged runtime events, in order.
 * @param runId - the run.
 * @param reason - the end reason, e.g. `aborted` for a cancel.
 * @param error - what happened.
 * @param elapsedMs - how long the run has lived, in ms since its start (the clock of its events' `t`).
 * @returns the events to append, possibly none.
 *
 * @example
 * ```ts
 * const closing = createClosingEvents(logged, runId, "aborted", { code: "aborted", message: "The run was cancelled" }, 10_113);
 * ```
 */
export function createClosingEvents(
  events: readonly RuntimeEvent[],
  runId: string,
  reason: RunEndReason,
  error: RuntimeErrorInfo,
  elapsedMs: number,
): RuntimeEvent[] {
  const state = replay(events);
  if (state.status === "ended") return [];
  const t = events.reduce((latest, event) => Math.max(latest, event.t), Math.max(0, elapsedMs));
  const closing: RuntimeEvent[] = [];
  for (const step of state.steps) {
    if (step.status === "planned") {
      closing.push({ type: "step-skipped", runId, t, stepId: step.step.id, code: "aborted", reason: error.message });
    } else if (step.status === "running" || step.status === "retrying") {
      closing.push({
        type: "step-error",
        runId,
        t,
        stepId: step.step.id,
        attempt: Math.max(1, step.attempts),
        error,
        final: true,
        durationMs: 0,
      });
    }
  }
  closing.push({ type: "run-end", runId, t, reason, usage: { ...state.usage }, durationMs: t, error });
  return closing;
}
