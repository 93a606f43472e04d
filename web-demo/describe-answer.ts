/**
 * How a run got its answer, in one line.
 *
 * @module
 */
import type { RunState } from "../src/events.ts";

/**
 * Says in one short line how the run got its reply: from which tools, or
 * that no tool was used because none fits the request (the demo model then
 * answers with what it can do; the page folds that reply, so the line is
 * what a reader sees). `declined` says which case it is.
 *
 * @param state - the run.
 * @returns the line (`""` until there is a reply) and whether the model declined.
 *
 * @example
 * ```ts
 * describeAnswer(store.getSnapshot()).text; // "Answered from 3 tool results: kb_lookup ×2, calculator."
 * ```
 */
export function describeAnswer(state: RunState): { text: string; declined: boolean } {
  if (state.reply === undefined) return { text: "", declined: false };
  const tools = state.steps.filter((step) => step.step.type === "tool");
  if (tools.length === 0 && state.steps.every((step) => step.step.type === "reply"))
    return { text: "No tool fits this request, so none ran: the model answered in words.", declined: true };
  const used = tools.filter((step) => step.status === "succeeded");
  if (used.length === 0) {
    const failed = tools.filter((step) => step.status === "failed").length;
    const denied = tools.filter((step) => step.skip?.code === "denied").length;
    const why = [
      failed > 0 ? `${failed} failed` : "",
      denied > 0 ? `${denied} denied by you` : "",
      tools.length > failed + denied ? `${tools.length - failed - denied} did not run` : "",
    ];
    return { text: `No tool result went into this answer (${why.filter(Boolean).join(", ")}).`, declined: false };
  }
  const counts = new Map<string, number>();
  for (const step of used) {
    const name = step.step.type === "tool" ? step.step.name : "";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const names = [...counts].map(([name, count]) => (count === 1 ? name : `${name} ×${count}`)).join(", ");
  const how = state.reply.source === "model" ? "The model wrote this answer from" : "Answered from";
  return { text: `${how} ${used.length} tool ${used.length === 1 ? "result" : "results"}: ${names}.`, declined: false };
}
