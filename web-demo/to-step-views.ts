/**
 * What the demo shows for each step.
 *
 * @module
 */

import type { RunState } from "../src/events.ts";
import { referencesOf } from "../src/plan.ts";

/** The state the demo shows for a step. */
type StepViewState = "planned" | "waiting" | "approval" | "running" | "done" | "failed" | "skipped" | "aborted";

/** One step, ready to draw. */
export interface StepView {
  id: string;
  state: StepViewState;
  /** `kb_lookup`, `llm` or `reply`. */
  label: string;
  /** The arguments, prompt or text, shortened. */
  detail: string;
  /** Ids of the steps it uses. */
  dependsOn: string[];
  /** Timing in words: "started at 120 ms", "took 35 ms", "2nd attempt". */
  timing: string;
  /** Why it is waiting, failed or was skipped, when known. */
  note: string;
  /** Whether it came from a re-plan. */
  replanned: boolean;
}

/**
 * Shortens text to `length` characters.
 *
 * @param text - the text.
 * @param length - the most characters.
 * @returns the text, with an ellipsis when cut.
 */
function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * Formats milliseconds for people.
 *
 * @param ms - milliseconds.
 * @returns e.g. `"35 ms"` or `"1.2 s"`.
 */
function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Turns the runtime's run state (from `createRunState`) into what the demo
 * draws. A step not yet started is `waiting` when something holds it back —
 * a dependency that has not succeeded, or the safety policy keeping a
 * side-effecting tool until the plan is complete — and `planned` otherwise;
 * a step the runtime asked a person about is `approval` until decided (a
 * denied one is `skipped`, its note saying so).
 * Running and retrying steps are `running`; succeeded steps `done`.
 *
 * @param state - the run state.
 * @returns one view per step, in plan order.
 *
 * @example
 * ```ts
 * const reducer = createRunState();
 * for await (const event of run) { reducer.apply(event); render(toStepViews(reducer.state)); }
 * ```
 */
export function toStepViews(state: RunState): StepView[] {
  const status = new Map(state.steps.map((entry) => [entry.step.id, entry.status]));
  return state.steps.map((entry) => {
    const { step } = entry;
    const dependsOn = referencesOf(step).filter((id) => status.has(id));
    const label = step.type === "tool" ? step.name : step.type;
    const detail = shorten(
      step.type === "tool" ? JSON.stringify(step.arguments) : step.type === "llm" ? step.prompt : step.text,
      90,
    );
    let view: StepViewState;
    let note = "";
    switch (entry.status) {
      case "running":
      case "retrying":
        view = "running";
        if (entry.status === "retrying") note = `retrying after: ${entry.error?.message ?? "an error"}`;
        break;
      case "succeeded":
        view = "done";
        if (entry.cached === true) note = "from the cache";
        break;
      case "failed":
        view = "failed";
        note = entry.error?.message ?? "";
        break;
      case "skipped":
        view = "skipped";
        note = entry.skip?.code === "denied" ? `denied: ${entry.skip.reason}` : (entry.skip?.reason ?? "");
        break;
      default: {
        const blockers = dependsOn.filter((id) => status.get(id) !== "succeeded");
        if (entry.approval?.status === "requested") {
          view = "approval";
          note =
            blockers.length > 0 ? `waits for your approval and for ${blockers.join(", ")}` : "waits for your approval";
        } else if (blockers.length > 0) {
          view = "waiting";
          note = `waits for ${blockers.join(", ")}`;
        } else if (!entry.safe && !state.plan.done) {
          view = "waiting";
          note = "has side effects: waits for the complete plan";
        } else {
          view = "planned";
        }
        if (entry.approval?.status === "approved") note = note === "" ? "approved" : `approved; ${note}`;
      }
    }
    let timing = "";
    if (entry.startedAt !== undefined && entry.endedAt !== undefined)
      timing = `took ${formatMs(entry.endedAt - entry.startedAt)} (from ${formatMs(entry.startedAt)})`;
    else if (entry.startedAt !== undefined) timing = `started at ${formatMs(entry.startedAt)}`;
    if (entry.attempts > 1) timing += `${timing === "" ? "" : ", "}attempt ${entry.attempts}`;
    return { id: step.id, state: view, label, detail, dependsOn, timing, note, replanned: entry.source === "replan" };
  });
}
