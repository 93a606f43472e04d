/**
 * The status line of a run, in words.
 *
 * @module
 */
import type { RunState } from "../events/run-state.ts";
import type { RunConnection } from "./create-run-store.ts";
import { isDeniedByPerson } from "./describe-step.ts";

/**
 * Writes milliseconds for people: `850 ms`, `2.4 s`.
 *
 * @param ms - milliseconds.
 * @returns the text.
 */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * What became of the steps, counted by outcome: `2 done, 1 failed, 1 denied
 * by you, 1 skipped, 1 re-plan`; `answered without tools` when the plan had
 * only its reply.
 *
 * @param state - the run.
 * @returns the words.
 */
function describeOutcome(state: RunState): string {
  const worked = state.steps.filter((step) => (step.step as { type: string }).type !== "reply");
  if (worked.length === 0) return state.reply === undefined ? "no steps" : "answered without tools";
  const count = (test: (step: (typeof worked)[number]) => boolean) => worked.filter(test).length;
  const denied = count((step) => step.status === "skipped" && isDeniedByPerson(step));
  const parts: [number, string][] = [
    [count((step) => step.status === "succeeded"), "done"],
    [count((step) => step.status === "failed"), "failed"],
    [denied, "denied by you"],
    [count((step) => step.status === "skipped") - denied, "skipped"],
    [count((step) => step.status !== "succeeded" && step.status !== "failed" && step.status !== "skipped"), "not run"],
  ];
  const counted = parts.filter(([number]) => number > 0).map(([number, words]) => `${number} ${words}`);
  const steps = `${worked.length} ${worked.length === 1 ? "step" : "steps"}: ${counted.join(", ")}`;
  return state.replans === 0 ? steps : `${steps}; ${state.replans} ${state.replans === 1 ? "re-plan" : "re-plans"}`;
}

/**
 * Describes where a run stands in one line, and its tone: `Planning…`,
 * `Running · 1 of 3 steps done`, `Waiting for your approval of 1 step`,
 * `Completed in 2.9 s · 3 steps: 1 done, 1 failed, 1 skipped; 1 re-plan`,
 * `Completed in 14 ms · 1 step: 1 denied by you`, `Ended: failed (…)`,
 * `Ended: aborted · …`. Reply steps are not counted as steps.
 *
 * @param state - the run, or `undefined` before there is one.
 * @param connection - where reading stands.
 * @returns the words and a tone: `danger`, `success` or `""`.
 *
 * @example
 * ```ts
 * describeRun(store.getSnapshot(), store.getConnection()).text; // "Completed in 1.2 s · 2 steps: 2 done"
 * ```
 */
export function describeRun(
  state: RunState | undefined,
  connection: RunConnection | undefined,
): { text: string; tone: string } {
  if (connection?.status === "failed")
    return { text: `Could not read the run: ${connection.error?.message ?? "unknown error"}`, tone: "danger" };
  if (state === undefined || state.status === "idle")
    return { text: connection?.status === "connecting" ? "Connecting…" : "Waiting for the run…", tone: "" };
  if (state.status === "running") {
    const total = state.steps.length;
    if (total === 0) return { text: "Planning…", tone: "" };
    const counts = `${state.steps.filter((step) => step.status === "succeeded").length} of ${total} steps done`;
    if (connection?.status === "reconnecting") return { text: `Reconnecting… ${counts}`, tone: "" };
    const asked = state.awaitingApproval.length;
    return {
      text:
        asked > 0
          ? `Waiting for your approval of ${asked} ${asked === 1 ? "step" : "steps"} · ${counts}`
          : `Running · ${counts}`,
      tone: asked > 0 ? "warning" : "",
    };
  }
  const outcome = describeOutcome(state);
  if (state.reason === "completed") {
    const failed = state.steps.some((step) => step.status === "failed");
    return {
      text: `Completed in ${formatDuration(state.durationMs ?? 0)} · ${outcome}`,
      tone: failed ? "" : "success",
    };
  }
  return {
    text: `Ended: ${state.reason ?? "unknown"}${state.error === undefined ? "" : ` (${state.error.message})`} · ${outcome}`,
    tone: "danger",
  };
}
