/**
 * One line of the demo's event timeline.
 *
 * @module
 */
import type { DemoEvent } from "./demo-event.ts";

/**
 * Describes an event in a few words, for the timeline.
 *
 * @param event - a demo event.
 * @returns the time (when the event has one) and the text.
 *
 * @example
 * ```ts
 * describeEvent({ type: "step-end", runId: "r", t: 12.3, stepId: "s1", attempt: 1, result: 47, durationMs: 2, cached: false });
 * // { time: "12 ms", text: "step-end s1 (2 ms)" }
 * ```
 */
export function describeEvent(event: DemoEvent): { time: string; text: string } {
  const time = "t" in event ? `${Math.round(event.t)} ms` : "";
  switch (event.type) {
    case "model":
      return { time, text: `model: ${event.name}` };
    case "error":
      return { time, text: `error ${event.code}: ${event.message}` };
    case "plan-start":
      return { time, text: `plan-start (${event.kind} ${event.attempt})` };
    case "plan-end":
      return {
        time,
        text: `plan-end: ${event.steps} step(s), ${event.clean ? "clean" : `unclean (${event.finishReason})`}`,
      };
    case "step-planned":
      return {
        time,
        text: `step-planned ${event.step.id} (${event.step.type === "tool" ? event.step.name : event.step.type}${event.safe ? "" : ", waits for the full plan"})`,
      };
    case "step-issue":
      return { time, text: `step-issue ${event.issue.code}: ${event.issue.message} (${event.action})` };
    case "step-start":
      return {
        time,
        text: `step-start ${event.stepId}${event.tool === undefined ? "" : ` (${event.tool})`}${event.attempt > 1 ? `, attempt ${event.attempt}` : ""}`,
      };
    case "step-end":
      return {
        time,
        text: `step-end ${event.stepId} (${Math.round(event.durationMs)} ms${event.cached ? ", cached" : ""})`,
      };
    case "step-error":
      return { time, text: `step-error ${event.stepId}: ${event.error.message}${event.final ? "" : " (will retry)"}` };
    case "step-retry":
      return { time, text: `step-retry ${event.stepId} in ${Math.round(event.delayMs)} ms (${event.cause})` };
    case "step-skipped":
      return { time, text: `step-skipped ${event.stepId}: ${event.reason}` };
    case "reflection":
      return { time, text: `reflection on ${event.stepId}: ${event.action} — ${event.reason}` };
    case "replan":
      return {
        time,
        text: `replan ${event.attempt}: replaced ${event.replaced.join(", ") || "nothing"}, added ${event.added.join(", ")}`,
      };
    case "approval-request":
      return {
        time,
        text: `approval-request ${event.requestId}: ${event.steps.map((step) => `${step.stepId} (${step.tool})`).join(", ")}`,
      };
    case "approval-decision":
      return {
        time,
        text: `approval-decision ${event.stepId}: ${event.approved ? "approved" : `denied${event.reason === undefined ? "" : ` — ${event.reason}`}`} (${event.by})`,
      };
    case "reply-delta":
      return { time, text: `reply-delta (${event.delta.length} characters)` };
    case "reply":
      return { time, text: `reply (${event.source})` };
    case "run-end":
      return {
        time,
        text: `run-end: ${event.reason} in ${Math.round(event.durationMs)} ms, ${event.usage.toolCalls} tool call(s), ${event.usage.modelCalls} model call(s)`,
      };
  }
}
