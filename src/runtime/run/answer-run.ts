/**
 * A run's answer once every step ended.
 *
 * @module
 */
import type { RuntimeErrorInfo } from "../../events/runtime-event.ts";
import type { PlanModel, PlanModelRequest } from "../../model/plan-model.ts";
import { buildIntegrationPrompt } from "../../planner/build-integration-prompt.ts";
import { integrationResults, renderTemplateReply } from "./finish-run.ts";
import { integrateAnswer } from "./integrate-answer.ts";
import type { Replies } from "./replies.ts";
import type { RunCore } from "./run-core.ts";
import type { StepEntry } from "./step-table.ts";

/**
 * Emits the answer, first of: a streamed draft whose step never came, the
 * last reply step that succeeded, the model's integration of the results
 * (streamed as `reply-delta`), or the template.
 *
 * @param core - the run.
 * @param replies - its reply.
 * @param model - the run's model (counted, budgeted, bounded), if any.
 * @param failure - what made the run fail, for a template answer with nothing else to say.
 * @returns resolves after `reply` (or once the run ended meanwhile).
 *
 * @example
 * ```ts
 * await answerRun(core, replies, model, undefined);
 * ```
 */
export async function answerRun(
  core: RunCore,
  replies: Replies,
  model: PlanModel | undefined,
  failure: RuntimeErrorInfo | undefined,
): Promise<void> {
  if (replies.finishStreaming(false)) return;
  let last: StepEntry | undefined;
  for (const entry of core.table.order) if (entry.step.type === "reply" && entry.status === "succeeded") last = entry;
  if (last !== undefined) {
    replies.answerWith(last);
    return;
  }
  const integrated = await integrate(core, replies, model);
  if (core.isEnded()) return;
  if (integrated === undefined) answerWithTemplate(core, replies, failure);
  else core.emit({ type: "reply", text: integrated, source: "model" });
}

/**
 * Emits the fixed answer: the results, and what was not done.
 *
 * @param core - the run.
 * @param replies - its reply.
 * @param failure - what made the run fail, said when there is nothing else.
 *
 * @example
 * ```ts
 * answerWithTemplate(core, replies); // reply-delta, then reply with source "template"
 * ```
 */
export function answerWithTemplate(
  core: Pick<RunCore, "table" | "emit">,
  replies: Replies,
  failure?: RuntimeErrorInfo,
): void {
  const text = renderTemplateReply(core.table, failure);
  replies.write(text);
  core.emit({ type: "reply", text, source: "template" });
}

/**
 * Asks the model to integrate the results into an answer, streamed as `reply-delta` events.
 *
 * @param core - the run.
 * @param replies - its reply.
 * @param model - the run's model.
 * @returns the answer, or `undefined` when there is no model, no budget, or the call failed before it wrote anything.
 */
async function integrate(core: RunCore, replies: Replies, model: PlanModel | undefined): Promise<string | undefined> {
  if (model === undefined || core.config.integrate === "template") return undefined;
  if (!core.limits.modelCallAllowed()) {
    core.limits.markHit();
    return undefined;
  }
  const request: PlanModelRequest = {
    purpose: "integrate",
    prompt: buildIntegrationPrompt(core.input.query, integrationResults(core.table)),
    signal: core.signal,
  };
  return integrateAnswer(
    model,
    request,
    (delta) => replies.write(delta),
    () => core.isEnded(),
    () => renderTemplateReply(core.table),
  );
}
