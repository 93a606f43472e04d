/**
 * The check that a conversation ends with the user's turn.
 *
 * @module
 */
import type { DialogMessage } from "../../src/events.ts";
import { HttpProblem } from "./http-problem.ts";

/**
 * Checks that the last message of a chat request is the user's, with text:
 * the request a run answers. A conversation that ends otherwise — a tool
 * result, an assistant turn, a user message that is empty or holds only
 * images — is refused rather than answered from an earlier user message,
 * which would run that request again.
 *
 * @param messages - the request's messages, as sent.
 * @param read - reads messages into the dialog (`fromChatMessages`, `fromUIMessages`).
 * @returns the dialog of all the messages.
 * @throws HttpProblem 400 `invalid-body` (pointer `#/messages`) naming the last message's index and role.
 *
 * @example
 * ```ts
 * const dialog = requireUserMessageLast(body.messages, fromChatMessages);
 * ```
 */
export function requireUserMessageLast(
  messages: readonly { role?: unknown }[],
  read: (messages: readonly unknown[]) => DialogMessage[],
): DialogMessage[] {
  const dialog = read(messages);
  const index = messages.length - 1;
  const last = messages[index];
  if (last?.role === "user" && read([last]).length > 0) return dialog;
  const what = last?.role === "user" ? "is the user's but has no text" : `has role ${JSON.stringify(last?.role)}`;
  const detail = `the last message must be a user message with text; messages[${index}] ${what}`;
  throw new HttpProblem(400, `Invalid request body: messages: ${detail}`, {
    code: "invalid-body",
    errors: [{ pointer: "#/messages", detail }],
  });
}
