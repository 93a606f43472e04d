/**
 * The reply that ends a guided turn: the model's words when it answers
 * cleanly, the template's otherwise.
 *
 * @module
 */
import { collectModelText } from "../model/collect-model-text.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { buildGuidedReplyPrompt } from "./build-guided-reply-prompt.ts";
import type { GuidedReplyEvent } from "./guided-event.ts";
import type { GuidedReplyInput } from "./guided-reply-input.ts";
import { renderGuidedReply } from "./render-guided-reply.ts";

/** The `reply` event of a turn, before its turn id and time are stamped. */
export type GuidedReplyBody = Omit<GuidedReplyEvent, "turnId" | "t">;

/**
 * Writes a turn's reply. With a model, its answer is the reply when it is
 * not empty and finished with `stop`; otherwise (or without a model) the
 * template writes it, and the event says why in `error`.
 *
 * @param input - what the reply is about.
 * @param model - the model, if any.
 * @param signal - aborts the model call.
 * @param checkAbort - throws when the turn was aborted (a failed model call of an aborted turn aborts it).
 * @returns the reply event's body.
 */
export async function writeGuidedTurnReply(
  input: GuidedReplyInput,
  model: PlanModel | undefined,
  signal: AbortSignal | undefined,
  checkAbort: () => void,
): Promise<GuidedReplyBody> {
  const reply: GuidedReplyBody = {
    type: "reply",
    text: "",
    action: input.action,
    source: "template",
    reason: input.reason,
  };
  if (model !== undefined) {
    try {
      const answer = await collectModelText(
        model,
        { ...buildGuidedReplyPrompt(input), purpose: "guided-reply", ...(signal === undefined ? {} : { signal }) },
        { what: "The guided reply" },
      );
      if (answer.text.trim() !== "" && answer.finishReason === "stop") {
        reply.text = answer.text.trim();
        reply.source = "model";
      } else {
        reply.error = {
          code: "model-error",
          message:
            answer.text.trim() === ""
              ? "The model's reply was empty"
              : `The model's reply did not finish cleanly (${answer.finishReason})`,
        };
      }
    } catch (error) {
      checkAbort();
      reply.error = { code: "model-error", message: error instanceof Error ? error.message : String(error) };
    }
  }
  if (reply.source === "template") reply.text = renderGuidedReply(input);
  return reply;
}
