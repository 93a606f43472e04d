/**
 * What a run's end is made of: the fallback answer, the integration prompt's input,
 * the failure that marks it, what memory keeps.
 *
 * @module
 */

import type { PlankitErrorCode } from "../../errors/plankit-error.ts";
import type { ReflectionRecord } from "../../events/run-state.ts";
import type { RunEndReason, RuntimeErrorInfo } from "../../events/runtime-event.ts";
import type { IntegrationResult } from "../../planner/build-integration-prompt.ts";
import { truncateJson } from "../../shared/truncate-json.ts";
import type { MemoryEntry } from "../memory-store.ts";
import type { StepEntry, StepTable } from "./step-table.ts";

/**
 * The fixed answer when no reply step ran and no model integrated one: the
 * results, what was not done, or, when there is nothing, what went wrong.
 *
 * @param table - the run's steps.
 * @param failure - what made the run fail, if anything.
 * @returns the text.
 *
 * @example
 * ```ts
 * renderTemplateReply(table); // "Results:\n- s1 (weather): {\"temp\":21}"
 * ```
 */
export function renderTemplateReply(table: StepTable, failure?: RuntimeErrorInfo): string {
  // Every step has ended by now, so a step the integration prompt shows as skipped was skipped.
  const lines = integrationResults(table).flatMap((result) => {
    const label = result.tool === undefined ? result.id : `${result.id} (${result.tool})`;
    const skipCode = table.get(result.id)?.skipCode;
    if (result.status === "succeeded") return [`- ${label}: ${truncateJson(result.result, 500)}`];
    if (result.error !== undefined) return [`- ${label} failed: ${result.error}`];
    if (result.reason !== undefined) return [`- ${label} was not done: ${result.reason}`];
    return skipCode === "replaced" ? [] : [`- ${label} was not done (${skipCode ?? "skipped"})`];
  });
  if (lines.length > 0) return `Results:\n${lines.join("\n")}`;
  return failure === undefined ? "(no valid reply)" : `No answer: ${failure.message}`;
}

/**
 * The steps a person declined: denied (by a decision or a request's
 * timeout), and those skipped only because they needed one of them. Such
 * steps are an answer, not a failure.
 *
 * @param table - the run's steps.
 * @returns their ids.
 *
 * @example
 * ```ts
 * declinedSteps(table).has("s2"); // true when s2 was denied, or needed only denied steps
 * ```
 */
function declinedSteps(table: StepTable): Set<string> {
  const declined = new Set<string>();
  // Dependencies come first in the table, so one pass sees every cause before its effects.
  for (const entry of table.order) {
    if (entry.status !== "skipped") continue;
    if (entry.skipCode === "denied") declined.add(entry.step.id);
    else if (
      entry.skipCode === "dependency-failed" &&
      entry.deps.some((id) => declined.has(id)) &&
      entry.deps.every((id) => declined.has(id) || table.get(id)?.status === "succeeded")
    ) {
      declined.add(entry.step.id);
    }
  }
  return declined;
}

/**
 * Why a declined step was not done, in words.
 *
 * @param entry - a declined step.
 * @returns the reason.
 */
function notDoneReason(entry: StepEntry, declined: ReadonlySet<string>): string {
  if (entry.approval?.status === "denied") {
    const reason = entry.approval.reason;
    return reason === undefined ? "denied" : `denied (${reason})`;
  }
  const needed = entry.deps.filter((id) => declined.has(id));
  return `it needed ${needed.map((id) => `"${id}"`).join(", ")}, which ${needed.length === 1 ? "was" : "were"} not done`;
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
  const declined = declinedSteps(table);
  return table.order
    .filter((entry) => entry.step.type !== "reply")
    .map((entry): IntegrationResult => {
      const result: IntegrationResult = {
        id: entry.step.id,
        status: entry.status === "succeeded" || entry.status === "failed" ? entry.status : "skipped",
      };
      if (entry.step.type === "tool") result.tool = entry.step.name;
      if (entry.status === "succeeded") result.result = table.results.get(entry.step.id);
      if (entry.status === "failed") result.error = entry.error?.message ?? "unknown error";
      else if (entry.status !== "succeeded" && declined.has(entry.step.id))
        result.reason = notDoneReason(entry, declined);
      return result;
    });
}

/** The error code of a run that failed because a step was skipped, by skip code (`tool-error` for the rest). */
const failureCodes: Partial<Record<string, PlankitErrorCode>> = {
  "unsafe-plan": "invalid-step",
  "unknown-dependency": "unknown-reference",
  cycle: "cycle",
  budget: "budget-exceeded",
};

/**
 * The error that makes a run `failed`, if any: an internal stop, the
 * planner's error, a step that failed and was not replaced, or a step
 * skipped for another reason than a re-plan replacing it or a person
 * declining it (see {@link declinedSteps}); a step whose outcome the planner
 * heard (its model answers it) fails no run, unless that outcome is unknown.
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
export function findRunFailure(
  table: StepTable,
  stopError: RuntimeErrorInfo | undefined,
  plannerError: RuntimeErrorInfo | undefined,
): RuntimeErrorInfo | undefined {
  if (stopError !== undefined) return stopError;
  if (plannerError !== undefined) return plannerError;
  // A person's denial is an answer, not a failure, and so is what was skipped only because it needed a denied step.
  const declined = declinedSteps(table);
  for (const entry of table.order) {
    // Whether a step whose outcome is unknown acted, its model cannot know either: that stays a failure.
    if (entry.heard === true && entry.error?.code !== "outcome-unknown") continue;
    if (entry.status === "failed" && !entry.superseded)
      return entry.error ?? { code: "tool-error", message: `Step "${entry.step.id}" failed` };
    if (entry.status === "skipped" && entry.skipCode !== "replaced" && !declined.has(entry.step.id)) {
      const code = entry.skipCode ?? "skipped";
      return {
        code: failureCodes[code] ?? "tool-error",
        message: `Step "${entry.step.id}" was skipped (${code})${entry.skipReason === undefined ? "" : `: ${entry.skipReason}`}`,
      };
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
  run: {
    runId: string;
    query: string;
    reason: RunEndReason;
    reply: string | undefined;
    reflections: readonly ReflectionRecord[];
  },
  table: StepTable,
  at: number,
): MemoryEntry[] {
  // The reducer writes a record's stepId first, so the copy keeps it first.
  const entries: MemoryEntry[] = run.reflections.map((reflection) => ({
    kind: "reflection",
    runId: run.runId,
    query: run.query,
    content: { ...reflection },
    at,
  }));
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
