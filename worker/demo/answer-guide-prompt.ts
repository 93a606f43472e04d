/**
 * The offline demo model's answers to the guided conversation's prompts.
 *
 * @module
 */
import type { PlanModelRequest } from "../../src/index.ts";
import { chooseGuidedAction } from "./choose-guided-action.ts";
import { writeGuidedReply } from "./write-guided-reply.ts";

/**
 * Answers the two prompts of a guided conversation, recognised by their
 * system prompts: the `llm_planner` strategy's choice
 * ({@link chooseGuidedAction}) and the reply ({@link writeGuidedReply}).
 *
 * @param request - the system prompt and the prompt.
 * @returns the answer, or `undefined` for any other prompt.
 * @example
 * ```ts
 * answerGuidePrompt(buildGuidedReplyPrompt(input)); // e.g. "Where would you like to go, and when?"
 * ```
 */
export function answerGuidePrompt(request: Pick<PlanModelRequest, "system" | "prompt">): string | undefined {
  const system = request.system ?? "";
  if (system.startsWith("You choose the next action of a guided conversation")) return chooseGuidedAction(request.prompt);
  if (system.startsWith("You write the assistant's next message in a guided conversation")) return writeGuidedReply(request.prompt);
  return undefined;
}
