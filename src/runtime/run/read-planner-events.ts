/**
 * Reading a planner's event stream.
 *
 * @module
 */

import { boundStream } from "../../model/bound-stream.ts";
import type { PlanIssue } from "../../plan/plan-issue.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import type { PlannerEvent } from "../../planner/planner-event.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import type { RunCore } from "./run-core.ts";

/** The planner's last event: its steps, whether it ended cleanly, its usage. */
export type PlannerDone = Extract<PlannerEvent, { type: "done" }>;

/** What the run does with each event. */
export interface PlannerEventHandlers {
  /** A validated step arrived. */
  step?(step: PlanStep): void;
  /** A step was dropped or repaired. */
  issue(issue: PlanIssue, action: "dropped" | "repaired"): void;
  /** The planner re-asked the model. */
  repair(): void;
  /** A model turn of a planner that works in turns ended (see `PlannerEvent` `turn-end`). */
  turnEnd?(clean: boolean): void;
}

/** How the stream is read. */
export interface PlannerReadOptions {
  clock: RuntimeClock;
  /** The longest silence between two events: longer than one model call may take means stalled. */
  idleMs: number;
  /** "Planning" or "Re-planning", for the timeout error. */
  what: string;
  signal: AbortSignal;
  /** Whether the run ended: reading stops and the stream is closed. */
  isEnded(): boolean;
  /** Receives the iterator, so the run can close it when it stops. */
  onIterator?(iterator: AsyncIterator<PlannerEvent>): void;
  /** When the planner was last busy waiting for its steps' outcomes: that wait is no silence. */
  busyAt?(now: number): number;
}

/**
 * Reads a planner's events, bounded in time, handing each to the run, and
 * returns its `done` event.
 *
 * @param events - the planner's stream (a plan or a patch).
 * @param handlers - what to do with steps, issues and repairs.
 * @param options - clock, limit, signal.
 * @returns `done`, or `undefined` when the stream ended without it or the run ended.
 * @throws PlankitError `timeout` when the planner stalled, `aborted` when the signal fired, or what the planner threw.
 *
 * @example
 * ```ts
 * const done = await readPlannerEvents(planner.stream(request), { step: add, issue: report, repair: announce }, options);
 * ```
 */
export async function readPlannerEvents(
  events: AsyncIterable<PlannerEvent>,
  handlers: PlannerEventHandlers,
  options: PlannerReadOptions,
): Promise<PlannerDone | undefined> {
  const iterator = boundStream(
    events,
    { idleMs: options.idleMs, totalMs: Number.POSITIVE_INFINITY },
    options.clock,
    options.what,
    options.signal,
    options.busyAt,
  )[Symbol.asyncIterator]();
  options.onIterator?.(iterator);
  let done: PlannerDone | undefined;
  try {
    for (;;) {
      const next = await iterator.next();
      if (options.isEnded()) return undefined;
      if (next.done === true) break;
      const event = next.value;
      if (event.type === "step") handlers.step?.(event.step);
      else if (event.type === "issue") handlers.issue(event.issue, event.action);
      else if (event.type === "repair") handlers.repair();
      else if (event.type === "turn-end") handlers.turnEnd?.(event.clean);
      else if (event.type === "done") done = event;
    }
  } finally {
    if (options.isEnded()) void Promise.resolve(iterator.return?.(undefined)).catch(() => undefined);
  }
  return done;
}

/**
 * How a run reads a planner's stream: a planner silent for longer than one
 * model call may take (`modelTimeouts.totalMs`) is stalled.
 *
 * @param core - the run.
 * @param what - "Planning" or "Re-planning".
 * @returns the options.
 *
 * @example
 * ```ts
 * await readPlannerEvents(planner.stream(request), handlers, plannerReading(core, "Planning"));
 * ```
 */
export function plannerReading(core: RunCore, what: string): PlannerReadOptions {
  const { clock, modelTimeouts } = core.config;
  return { clock, idleMs: modelTimeouts.totalMs, what, signal: core.signal, isEnded: () => core.isEnded() };
}
