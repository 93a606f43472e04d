/**
 * The step views after the user stopped a run.
 *
 * @module
 */
import type { StepView } from "./to-step-views.ts";

/**
 * Marks every step that had not ended when the run stopped — running,
 * waiting or only planned — as `aborted`, so that nothing looks as if it
 * were still working. Steps that ended keep their state.
 *
 * @param views - the views when the run stopped.
 * @returns new views; the input is not changed.
 *
 * @example
 * ```ts
 * stopStepViews(toStepViews(state)).filter((view) => view.state === "running"); // []
 * ```
 */
export function stopStepViews(views: readonly StepView[]): StepView[] {
  return views.map((view) =>
    view.state === "running" || view.state === "waiting" || view.state === "approval" || view.state === "planned"
      ? { ...view, state: "aborted", note: "stopped before it finished" }
      : view,
  );
}
