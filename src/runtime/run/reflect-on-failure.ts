/**
 * Asking the reflector about a failed step.
 *
 * @module
 */

import type { RuntimeErrorInfo } from "../../events/runtime-event.ts";
import type { PlanModel } from "../../model/plan-model.ts";
import type { Reflection, ReflectionRequest } from "../../planner/reflector.ts";
import { isPromiseLike } from "../../shared/is-promise-like.ts";
import { isRecord } from "../../shared/is-record.ts";
import { raceSignal } from "../race-signal.ts";
import type { RunCore } from "./run-core.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepEntry } from "./step-table.ts";

/**
 * Asks the reflector about a failure, unless the step used its reflections,
 * the run stopped, the error is an abort or a spent budget, or the step is
 * a turn's call of a planner that tells its model what became of it. A reflector
 * that throws, or answers something else than `retry`, `new_plan` or
 * `abort`, or a `retry` whose `arguments` are not a plain JSON object, has
 * no opinion; a `reason` that is not text is none (`""`).
 *
 * @param core - the run around the step (its reflector, query, registry, signal and results).
 * @param model - the run's model (counted, budgeted, bounded), handed to the reflector.
 * @param entry - the failed step.
 * @param error - its last error.
 * @returns the verdict, or `undefined`.
 *
 * @example
 * ```ts
 * const verdict = await reflectOnFailure(core, model, entry, { code: "tool-error", message: "404" });
 * ```
 */
export async function reflectOnFailure(
  core: RunCore,
  model: PlanModel | undefined,
  entry: StepEntry,
  error: RuntimeErrorInfo,
): Promise<Reflection | undefined> {
  const { config, signal } = core;
  const reflector = config.reflector;
  if (reflector === undefined || entry.reflections >= config.reflectionRetries) return undefined;
  // A planner that works in turns tells its model of the failure: the model answers it, not a reflector.
  if (config.planner.hearsOutcomes === true && entry.source.kind === "plan") return undefined;
  if (error.code === "aborted" || error.code === "budget-exceeded" || signal.aborted) return undefined;
  let verdict: Reflection | undefined;
  try {
    const request: ReflectionRequest = {
      query: core.input.query,
      step: entry.step,
      input: entry.lastInput,
      error,
      attempts: entry.attempts,
      completed: core.table.completed(),
      signal,
    };
    if (entry.step.type === "tool") {
      const tool = config.registry.get(entry.step.name);
      if (tool !== undefined) request.tool = tool;
    }
    if (model !== undefined) request.model = model;
    const answer = reflector.reflect(request);
    verdict = isPromiseLike<Reflection | undefined>(answer)
      ? await raceSignal(answer, signal)
      : (answer as Reflection | undefined);
  } catch {
    return undefined;
  }
  // `null` and other values that are not an object are no opinion either.
  if (!isRecord(verdict) || signal.aborted) return undefined;
  const action = (verdict as { action?: unknown }).action;
  if (action !== "retry" && action !== "new_plan" && action !== "abort") return undefined;
  // A reason is text for people: anything else is no reason, not "undefined" or "[object Object]".
  if (typeof verdict.reason !== "string") verdict = { ...verdict, reason: "" };
  if (verdict.action !== "retry" || verdict.arguments === undefined) return verdict;
  // The run keeps its own frozen copy of changed arguments; ones that are not a plain JSON object are no opinion.
  const changes: unknown = verdict.arguments;
  if (!isRecord(changes)) return undefined;
  try {
    return {
      ...verdict,
      arguments: snapshotValue(changes, {
        freeze: true,
        what: `The arguments a reflector gave step "${entry.step.id}"`,
      }) as Record<string, unknown>,
    };
  } catch {
    return undefined;
  }
}
