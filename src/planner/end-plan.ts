/**
 * The end of a planning run: its reply, then `done`.
 *
 * @module
 */
import type { FinishReason } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { stepIssue } from "../plan/step-issue.ts";
import { buildQuotingReply } from "./build-quoting-reply.ts";
import { createIdPicker } from "./create-id-picker.ts";
import { fallbackReplyText } from "./fallback-reply-text.ts";
import { issueEvent } from "./issue-event.ts";
import type { PlannerEvent, PlannerUsage } from "./planner-event.ts";

/** How a planning run ends. */
export interface PlanEnding {
  /** The new steps, without a reply; the reply is added in place. */
  planned: PlanStep[];
  /** The model's own reply, if it gave one: a step, or a text that becomes one under the preferred id. */
  reply: PlanStep | string | undefined;
  /** The ids a reply the planner adds may not take. */
  taken: Iterable<string>;
  /** The preferred id of a reply the planner adds from a text, or of the fallback reply. */
  preferredId: string;
  /** Why a reply was added, the start of the `no-reply` issue's message. */
  noReply: string;
  /** The model's text, which the fallback reply carries. */
  modelText: string;
  /** The fallback reply's text when the model wrote none. */
  fallbackText: string;
  /** Whether the model's answer is clean, the fallback aside. */
  clean: boolean;
  finishReason: FinishReason | "missing";
  usage: PlannerUsage;
  reasoning?: string | undefined;
}

/**
 * Ends a plan with a reply — the model's own; else one quoting the plan's
 * final results (a repaired `no-reply` issue); else, when there are no
 * steps, the fallback reply, which makes the plan not clean — and builds
 * `done`.
 *
 * @param ending - the steps, the reply and what the run knows.
 * @returns the events of the reply; the return value is the `done` event, yielded by the caller.
 *
 * @example
 * ```ts
 * const done = yield* endPlan({ planned, reply: undefined, taken: ["s1"], preferredId: "s2", noReply: "…", … });
 * ```
 */
export function* endPlan(ending: PlanEnding): Generator<PlannerEvent, PlannerEvent> {
  const { planned, preferredId, reasoning } = ending;
  const freeId = createIdPicker(ending.taken);
  let { reply } = ending;
  const fallback = reply === undefined && planned.length === 0;
  if (fallback) {
    reply = { id: freeId(preferredId), type: "reply", text: fallbackReplyText(ending.modelText, ending.fallbackText) };
  } else if (typeof reply === "string") {
    reply = { id: freeId(preferredId), type: "reply", text: reply };
  } else if (reply === undefined) {
    const id = freeId("reply");
    const quoting = buildQuotingReply(planned, id);
    reply = quoting.reply;
    yield issueEvent(
      stepIssue("no-reply", planned.length, id, `${ending.noReply}; reply "${id}" quoting ${quoting.quoted} was added`),
      "repaired",
    );
  }
  planned.push(reply);
  yield { type: "step", step: reply, index: planned.length - 1 };
  const done: PlannerEvent = {
    type: "done",
    steps: planned,
    clean: ending.clean && !fallback,
    finishReason: ending.finishReason,
    fallback,
    usage: { ...ending.usage },
  };
  if (reasoning !== undefined) done.reasoning = reasoning;
  return done;
}
