/**
 * The planning loop: model call, streaming parse, per-step validation,
 * one repair re-ask, and the fallback reply.
 *
 * @module
 */

import { PlankitError } from "../errors/plankit-error.ts";
import type { FinishReason } from "../model/plan-model.ts";
import { streamModelText } from "../model/stream-model-text.ts";
import { createToolCallReader } from "../plan/create-tool-call-reader.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import { linkSignal } from "../shared/link-signal.ts";
import { PlanAttempts } from "./plan-attempts.ts";
import type { PlanAttemptsSetup } from "./plan-attempts-setup.ts";
import type { PlannerEvent } from "./planner-event.ts";

/**
 * Runs a planning call and streams its events: each step the moment its
 * JSON closes and validates, each dropped or repaired step, at most one
 * repair re-ask, then `done`.
 *
 * - Steps are validated one at a time with `validateStep` against the whole
 *   catalog and the steps accepted before them.
 * - The reply is held until the call ends: a repair may still add steps
 *   before it. On a repair it is set aside, and restored when the repair
 *   brings no reply of its own.
 * - `maxSteps` keeps its last place for the reply: other steps past
 *   `maxSteps - 1` are dropped (`too-many-steps`), as are steps after the
 *   reply and, in a repair or a re-plan, steps restating one already in the
 *   plan (same id, same call); none of these triggers a repair, but the
 *   first two are steps lost, so the answer is not clean. A repeated call
 *   under a new id is a step like any other, as `validatePlan` sees it.
 * - When no reply comes, one quoting the plan's final results is added
 *   (`no-reply`, repaired) — without a re-ask when that is the answer's only
 *   issue (many models write calls alone), and the answer then stays clean;
 *   when no step survives, a fallback reply carries the model's text (first
 *   2000 characters) or `fallbackText`.
 *
 * @param setup - model, prompt, catalog, limits and what is already planned.
 * @returns the events; `done` is always last.
 * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
 *
 * @example
 * ```ts
 * for await (const event of streamPlanAttempts({ model, prompt, catalog, maxSteps: 6, repair: true, … })) …
 * ```
 */
export async function* streamPlanAttempts(setup: PlanAttemptsSetup): AsyncGenerator<PlannerEvent, void> {
  const plan = new PlanAttempts(setup);
  const link = linkSignal(setup.signal);
  let request = setup.prompt;
  let finishReason: FinishReason | "missing" = "missing";
  /** The issues the repair re-ask is to fix; none on the first call. */
  let repairing: PlanIssue[] | undefined;
  let completed = false;
  try {
    for (;;) {
      // One model call, read and validated while it streams: each call in any
      // common format (docs/formats.md) becomes a step the moment it closes.
      const reader = createToolCallReader({ parameterNames: (name) => plan.toolParameters(name) });
      let text = "";
      let streamed = 0;
      const { shownTools } = setup;
      const call = streamModelText(
        setup.model,
        { ...request, purpose: repairing === undefined ? setup.purpose : "repair", signal: link.signal },
        {
          what: setup.what,
          usage: setup.usage,
          timeouts: setup.timeouts,
          ...(repairing === undefined && shownTools !== undefined
            ? { whileWaiting: (): void => setup.catalog.prepare(shownTools) }
            : {}),
        },
      );
      try {
        for (let next = await call.next(); ; next = await call.next()) {
          if (next.done === true) {
            finishReason = next.value;
            break;
          }
          text += next.value;
          for (const element of reader.write(next.value)) {
            streamed++;
            yield* plan.take(element);
          }
          plan.reportPartialDraft(reader);
        }
      } catch (error) {
        // A failed re-ask hides why it was asked: the error names the issues it was to repair.
        throw repairing === undefined || !PlankitError.isInstance(error) || error.code === "aborted"
          ? error
          : repairFailure(error, repairing);
      } finally {
        await call.return("missing");
      }
      const issues = yield* plan.endAttempt(reader.end(), streamed, text);
      // An answer of calls alone, all valid, is what many models write: its reply is added below, without a re-ask.
      if (!setup.repair || repairing !== undefined || issues.every((issue) => issue.code === "no-reply")) break;
      request = plan.startRepair(issues, text);
      repairing = issues;
      yield { type: "repair", attempt: 1, issues };
    }
    const done = yield* plan.close(finishReason);
    completed = true;
    yield done;
  } finally {
    link.release(completed);
  }
}

/**
 * The error of a repair re-ask that failed, naming the issues it was asked to repair.
 *
 * @param error - the model call's error.
 * @param issues - what the repair was asked for.
 * @returns the error, with the same code.
 */
function repairFailure(error: PlankitError, issues: readonly PlanIssue[]): PlankitError {
  const asked = issues.map((issue) => issue.message).join("; ");
  return new PlankitError(error.code, `${error.message}, while re-asking the model to repair its plan (${asked})`, {
    cause: error,
  });
}
