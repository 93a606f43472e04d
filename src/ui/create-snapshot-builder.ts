/**
 * Immutable snapshots of a run state that the reducer updates in place.
 *
 * @module
 */

import type { RunState, StepState } from "../events/run-state.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";

/** Tracks what changed and builds the next snapshot. */
export interface SnapshotBuilder {
  /**
   * Notes which parts of the state an event touches.
   *
   * @param event - an event just applied to the state.
   */
  touch(event: RuntimeEvent): void;
  /**
   * The snapshot of the state: the same object until {@link touch} was called.
   *
   * @returns a copy that shares every step the events since the last call left alone.
   */
  build(): RunState;
}

/**
 * The step ids an event may change.
 *
 * @param event - the event.
 * @returns the ids.
 */
function stepsOf(event: RuntimeEvent): string[] {
  if (event.type === "step-planned") return [event.step.id];
  if (event.type === "approval-request") return event.steps.map((item) => item.stepId);
  return "stepId" in event ? [event.stepId] : [];
}

/**
 * Creates a snapshot builder over a state the reducer mutates. Why copies:
 * `useSyncExternalStore` and memoized views compare by identity, so a changed
 * state must be a new object, and an unchanged step the same object as
 * before. Each build copies the top level and the touched steps only, so a
 * run of n steps costs O(n) per snapshot, not per event.
 *
 * @param state - the reducer's state.
 * @returns the builder.
 *
 * @example
 * ```ts
 * const reducer = createRunState();
 * const snapshots = createSnapshotBuilder(reducer.state);
 * reducer.apply(event);
 * snapshots.touch(event);
 * snapshots.build();
 * ```
 */
export function createSnapshotBuilder(state: RunState): SnapshotBuilder {
  const copies = new Map<StepState, StepState>();
  const touched = new Set<string>();
  let snapshot: RunState | undefined;
  return {
    touch(event) {
      for (const id of stepsOf(event)) touched.add(id);
      snapshot = undefined;
    },
    build() {
      if (snapshot !== undefined) return snapshot;
      const steps = state.steps.map((step) => {
        let copy = copies.get(step);
        if (copy === undefined || touched.has(step.step.id)) {
          copy = { ...step };
          copies.set(step, copy);
        }
        return copy;
      });
      touched.clear();
      snapshot = {
        ...state,
        plan: { ...state.plan },
        steps,
        issues: [...state.issues],
        reflections: [...state.reflections],
        awaitingApproval: [...state.awaitingApproval],
        usage: { ...state.usage },
      };
      return snapshot;
    },
  };
}
