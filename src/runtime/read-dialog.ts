/**
 * The request and the conversation before it.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { Dialog } from "../events/dialog.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";

/**
 * Splits a dialog into the request (the last user message) and the turns before it.
 *
 * @param dialog - a string or messages.
 * @returns the query and the earlier turns as text (the last ten).
 * @throws PlankitError `invalid-input` for something else than a string or an array of `{ role, content }` messages (naming the message and the value), a conversation with no user message, or a blank request.
 *
 * @example
 * ```ts
 * readDialog([{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }, { role: "user", content: "Weather?" }]);
 * // { query: "Weather?", history: "user: Hi\nassistant: Hello" }
 * ```
 */
export function readDialog(dialog: Dialog): { query: string; history: string } {
  // Typed on the name, so that the checks after a call see it never returns.
  const refuse: (message: string) => never = (message) => {
    throw new PlankitError("invalid-input", `run: ${message}`);
  };
  if (typeof dialog === "string") {
    if (dialog.trim() === "") refuse(`the request is blank (${describeValue(dialog)})`);
    return { query: dialog, history: "" };
  }
  if (!Array.isArray(dialog))
    refuse(
      `the dialog must be the request as a string or an array of { role, content } messages, got ${describeValue(dialog)}`,
    );
  let last = -1;
  dialog.forEach((message: unknown, index) => {
    if (!isRecord(message) || !["user", "assistant", "system"].includes(message["role"] as string))
      refuse(
        `dialog[${index}] must be a message with role "user", "assistant" or "system", got ${describeValue(message)}`,
      );
    if (typeof message["content"] !== "string")
      refuse(`dialog[${index}].content must be a string, got ${describeValue(message["content"])}`);
    if (message["role"] === "user") last = index;
  });
  if (last === -1) refuse(`the conversation has no user message (${dialog.length} message(s))`);
  const query = dialog[last]?.content ?? "";
  if (query.trim() === "") refuse(`the last user message, dialog[${last}], is blank`);
  const history = dialog
    .slice(Math.max(0, last - 10), last)
    .map((message) => `${message.role}: ${message.content}`)
    .join("\n");
  return { query, history };
}
