/**
 * Reading a request as a goal.
 *
 * @module
 */

import { PlankitError } from "../errors/plankit-error.ts";
import { createJsonStreamParser } from "../json/create-json-stream-parser.ts";
import type { ModelTimeouts } from "../model/bound-stream.ts";
import { collectModelText } from "../model/collect-model-text.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import { buildGoalPrompt } from "./build-goal-prompt.ts";
import type { PlanGoal } from "./plan-goal.ts";
import type { PlannerProfile } from "./planner-event.ts";
import { readGoal } from "./read-goal.ts";
import { checkModel, checkOption, readModelTimeouts } from "./read-planner-options.ts";

/** What {@link understandRequest} needs. */
export interface UnderstandRequest {
  /** The model that reads the request. */
  model: PlanModel;
  /** The user's request. */
  query: string;
  /** A profile object or a ready system prompt. */
  profile?: PlannerProfile | string;
  signal?: AbortSignal;
  /**
   * The longest waits of the model call (see `LLMPlannerOptions.modelTimeouts`).
   *
   * @defaultValue `{ idleMs: 60000, totalMs: 300000 }`
   */
  modelTimeouts?: Partial<ModelTimeouts>;
}

/**
 * Understands a request as a goal: its objective, implied requirements,
 * constraints, success metrics and risks. Pass `renderGoal(goal)` as the
 * `context` of a plan request to plan with it. An unreadable answer gives a
 * goal whose objective is the query, and so does an answer that did not
 * finish with `stop` (cut off by the length limit, say). The model call's `purpose` is
 * `understand`.
 *
 * @param request - the model, the query, an optional profile, signal and time limits.
 * @returns the goal.
 * @throws PlankitError `invalid-options` for an unknown field or a value of the wrong kind (naming it); `aborted` when the signal fires; `model-error` or `timeout` when the model fails.
 *
 * @example
 * ```ts
 * const goal = await understandRequest({ model, query });
 * const steps = await planner.plan({ query, tools, context: renderGoal(goal) });
 * ```
 */
export async function understandRequest(request: UnderstandRequest): Promise<PlanGoal> {
  const given: unknown = request;
  if (!isRecord(given) || (typeof given["stream"] === "function" && !("model" in given)))
    throw new PlankitError(
      "invalid-options",
      `understandRequest takes one object, { model, query }, got ${describeValue(given)}${arguments.length > 1 ? " and more arguments" : ""}`,
    );
  checkOptionKeys(request, ["model", "query", "profile", "signal", "modelTimeouts"], "understandRequest");
  checkModel(request.model);
  const { model, query, signal, profile } = request;
  checkOption("query", query, typeof query === "string" && query.trim() !== "", "the request, a non-blank string");
  checkOption(
    "profile",
    profile,
    profile === undefined || typeof profile === "string" || isRecord(profile),
    "a profile object or a string",
  );
  checkOption(
    "signal",
    signal,
    signal === undefined || (isRecord(signal) && typeof signal.addEventListener === "function" && "aborted" in signal),
    "an AbortSignal",
  );
  const timeouts = readModelTimeouts(request.modelTimeouts);
  const { text, finishReason } = await collectModelText(
    model,
    {
      ...buildGoalPrompt({ query, profile }),
      purpose: "understand",
      ...(signal === undefined ? {} : { signal }),
    },
    { what: "Goal understanding", usage: { modelCalls: 0 }, timeouts },
  );
  // An answer cut off (by the length limit, say) may hold half a sentence as the objective: it is not read.
  if (finishReason !== "stop") return readGoal(undefined, query);
  const parser = createJsonStreamParser();
  parser.write(text);
  let value: unknown;
  try {
    value = parser.end();
  } catch {
    value = undefined;
  }
  return readGoal(Array.isArray(value) ? value[0] : value, query);
}
