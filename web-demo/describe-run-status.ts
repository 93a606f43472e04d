/**
 * The status line of the demo page.
 *
 * @module
 */
import type { RunState } from "../src/events.ts";

/**
 * Writes milliseconds for people: "850 ms", "2.4 s".
 *
 * @param ms - milliseconds.
 * @returns the text.
 */
function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Describes where a run is, from its state: "Planning…", "Running 2
 * steps while the plan streams…", "Running 1 step…", "Waiting for your
 * approval of 1 step…" (when nothing else runs), "Done in 1.2 s: 3
 * steps ran.", "Stopped.", "Failed after 40 ms: …".
 *
 * @param state - the run state (see `createRunState`).
 * @returns one line.
 *
 * @example
 * ```ts
 * describeRunStatus(reducer.state); // "Running 2 steps while the plan streams…"
 * ```
 */
export function describeRunStatus(state: RunState): string {
  if (state.status === "idle") return "Starting…";
  if (state.status === "ended") {
    const took = formatMs(state.durationMs ?? 0);
    const ran = state.steps.filter((step) => step.status === "succeeded" && step.step.type !== "reply").length;
    switch (state.reason) {
      case "completed":
        return `Done in ${took}: ${ran} step${ran === 1 ? "" : "s"} ran.`;
      case "aborted":
        return "Stopped.";
      default:
        return `Run ${state.reason ?? "ended"} after ${took}${state.error === undefined ? "." : `: ${state.error.message}`}`;
    }
  }
  const running = state.steps.filter((step) => step.status === "running" || step.status === "retrying").length;
  const asked = state.awaitingApproval.length;
  if (asked > 0 && running === 0) return `Waiting for your approval of ${asked} step${asked === 1 ? "" : "s"}…`;
  if (running > 0)
    return `Running ${running} step${running === 1 ? "" : "s"}${state.plan.done ? "" : " while the plan streams"}…`;
  if (!state.plan.done) return "Planning…";
  return state.reply === undefined ? "Writing the reply…" : "Finishing…";
}
