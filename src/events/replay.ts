/**
 * Rebuilding a run's state from its event log.
 *
 * @module
 */
import { createRunState } from "./create-run-state.ts";
import type { RunState } from "./run-state.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * Rebuilds a run's state from its events, with the same reducer the live run
 * uses: steps with their status, results and errors, the reply, the end
 * reason and usage. Feed it a stored log (see `parseJsonl`) to inspect or
 * display a past run.
 *
 * @param events - the run's events, in order.
 * @returns the run state after the last event.
 *
 * @example
 * ```ts
 * const state = replay(parseJsonl(log));
 * state.reply?.text;
 * ```
 */
export function replay(events: Iterable<RuntimeEvent>): RunState {
  const reducer = createRunState();
  for (const event of events) reducer.apply(event);
  return reducer.state;
}
