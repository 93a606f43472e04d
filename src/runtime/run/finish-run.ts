/**
 * What a run's end is made of: the fallback answer, the integration prompt's input,
 * the failure that marks it, what memory keeps.
 *
 * @module
 */
import type { MemoryEntry } from "../memory-store.ts";
import type { ReflectionRecord } from "../../events/run-state.ts";
import type { RunEndReason, RuntimeErrorInfo } from "../../events/runtime-event.ts";
import { truncateJson } from "../../shared/truncate-json.ts";
import type { IntegrationResult } from "../../planner/build-integration-prompt.ts";
import type { StepTable } from "./step-table.ts";

/**
 * The fixed answer when no reply step ran and no model integrated one.
 *
 * @param table - the run's steps.
 * @returns the text.
 *
 * @example
 * ```ts
 * renderTemplateReply(table); // "Results:\n- s1 (weather): {\"temp\":21}"
 * ```
 */
export function renderTemplateReply(table: StepTable): string {
  const lines: string[] = [];
  for (const entry of table.order) {
    if (entry.step.type === "reply") continue;
    const label = entry.step.type === "tool" ? `${entry.step.id} (${entry.step.name})` : entry.step.id;
    if (entry.status === "succeeded") lines.push(`- ${label}: ${truncateJson(table.results.get(entry.step.id), 500)}`);
    else if (entry.status === "failed") lines.push(`- ${label} failed: ${entry.error?.message ?? "unknown error"}`);
  }
  return lines.length === 0 ? "(no valid reply)" : `Results:\n${lines.join("\n")}`;
}

/**
 * The steps as the integration prompt shows them (see `buildIntegrationPrompt`).
 *
 * @param table - the run's steps.
 * @returns each step but the reply, with its outcome.
 *
 * @example
 * ```ts
 * const prompt = buildIntegrationPrompt("weather in Paris?", integrationResults(table));
 * ```
 */
export function integrationResults(table: StepTable): IntegrationResult[] {
  return table.order
    .filter((entry) => entry.step.type !== "reply")
    .map((entry): IntegrationResult => {
      const result: IntegrationResult = { id: entry.step.id, status: entry.status === "succeeded" || entry.status === "failed" ? entry.status : "skipped" };
      if (entry.step.type === "tool") result.tool = entry.step.name;
      if (entry.status === "succeeded") result.result = table.results.get(entry.step.id);
      if (entry.status === "failed") result.error = entry.error?.message ?? "unknown error";
      return result;
    });
}

/**
 * The error that makes a run `failed`, if any: an internal stop, the
 * planner's error, a step that failed and was not replaced, or a step
 * skipped for another reason than a re-plan replacing it.
 *
 * @param table - the run's steps.
 * @param stopError - an error that stopped the run.
 * @param plannerError - the planner's error.
 * @returns it, or `undefined` when the run completed.
 *
 * @example
 * ```ts
 * findRunFailure(table, undefined, undefined); // undefined when every step succeeded
 * ```
 */
export function findRunFailure(table: StepTable, stopError: RuntimeErrorInfo | undefined, plannerError: RuntimeErrorInfo | undefined): RuntimeErrorInfo | undefined {
  if (stopError !== undefined) return stopError;
  if (plannerError !== undefined) return plannerError;
  for (const entry of table.order) {
    if (entry.status === "failed" && !entry.superseded) return entry.error ?? { code: "tool-error", message: `Step "${entry.step.id}" failed` };
    // A person's denial is an answer, not a failure; what depended on it was skipped and still counts.
    if (entry.status === "skipped" && entry.skipCode !== "replaced" && entry.skipCode !== "denied") {
      return { code: entry.skipCode === "unsafe-plan" ? "invalid-step" : "tool-error", message: `Step "${entry.step.id}" was skipped (${entry.skipCode ?? "skipped"})` };
    }
  }
  return undefined;
}

/**
 * What memory keeps of a run: its reflections, then its result.
 *
 * @param run - id, query, end reason, reply and reflections of the run.
 * @param table - the run's steps.
 * @param at - the time stamp.
 * @returns the entries, in writing order.
 *
 * @example
 * ```ts
 * const entries = buildMemoryEntries({ runId, query, reason: "completed", reply: "21°C", reflections: [] }, table, Date.now());
 * ```
 */
export function buildMemoryEntries(
  run: { runId: string; query: string; reason: RunEndReason; reply: string | undefined; reflections: readonly ReflectionRecord[] },
  table: StepTable,
  at: number,
): MemoryEntry[] {
  const entries: MemoryEntry[] = run.reflections.map((reflection) => {
    const { stepId, ...verdict } = reflection;
    return { kind: "reflection", runId: run.runId, query: run.query, content: { stepId, ...verdict }, at };
  });
  entries.push({
    kind: "result",
    runId: run.runId,
    query: run.query,
    content: {
      reason: run.reason,
      reply: run.reply,
      steps: table.order.map((entry) => ({
        id: entry.step.id,
        ...(entry.step.type === "tool" ? { tool: entry.step.name } : {}),
        status: entry.status,
        ...(entry.status === "succeeded" ? { result: table.results.get(entry.step.id) } : {}),
        ...(entry.error !== undefined && entry.status === "failed" ? { error: entry.error.message } : {}),
      })),
    },
    at,
  });
  return entries;
}
