/**
 * Chat Completions messages as the runtime's dialog.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { DialogMessage } from "../events/dialog.ts";
import { describeValue } from "../shared/describe-value.ts";

/**
 * Joins the text parts of a content list; other parts (images, audio, files,
 * refusals) are left out, but a part that is malformed is refused rather than
 * dropped, so that no text of the request vanishes unseen.
 *
 * @param parts - the content parts.
 * @param where - the content's location, for messages (`messages[1].content`).
 * @returns the texts joined by blank lines.
 * @throws PlankitError `invalid-input` for a part without a string `type`, or a text part without a string `text`.
 */
function readTextParts(parts: readonly unknown[], where: string): string {
  const texts: string[] = [];
  parts.forEach((part: unknown, index: number) => {
    const type = typeof part === "object" && part !== null ? (part as Record<string, unknown>)["type"] : undefined;
    if (typeof type !== "string")
      throw new PlankitError(
        "invalid-input",
        `${where}[${index}] must be a content part with a string type, got ${describeValue(part)}`,
      );
    if (type !== "text") return;
    const text = (part as Record<string, unknown>)["text"];
    if (typeof text !== "string")
      throw new PlankitError("invalid-input", `${where}[${index}].text must be a string, got ${describeValue(text)}`);
    texts.push(text);
  });
  return texts.join("\n\n");
}

/**
 * Reads the `messages` of a Chat Completions request as the runtime's
 * dialog: `system` and `developer` messages as `system`, `user` and
 * `assistant` as they are; a `content` string as it is, a list of parts as
 * its text parts joined by blank lines (other parts are left out); `tool`
 * messages and messages with no text are left out.
 *
 * @param messages - the request's messages.
 * @returns the dialog, in order.
 * @throws PlankitError `invalid-input` naming the message and the value when a message has no known role, its content is neither a string nor a list of parts, or a part is malformed.
 *
 * @example
 * ```ts
 * fromChatMessages([{ role: "developer", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "21*2+5?" }] }]);
 * // [{ role: "system", content: "Be brief." }, { role: "user", content: "21*2+5?" }]
 * ```
 */
export function fromChatMessages(messages: readonly unknown[]): DialogMessage[] {
  if (!Array.isArray(messages))
    throw new PlankitError(
      "invalid-input",
      `messages must be an array of chat messages, got ${describeValue(messages)}`,
    );
  const dialog: DialogMessage[] = [];
  messages.forEach((message: unknown, index: number) => {
    const where = `messages[${index}]`;
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw new PlankitError(
        "invalid-input",
        `${where} must be an object with role and content, got ${describeValue(message)}`,
      );
    }
    const { role, content } = message as Record<string, unknown>;
    if (
      role !== "system" &&
      role !== "developer" &&
      role !== "user" &&
      role !== "assistant" &&
      role !== "tool" &&
      role !== "function"
    ) {
      throw new PlankitError(
        "invalid-input",
        `${where}.role must be "system", "developer", "user", "assistant" or "tool", got ${describeValue(role)}`,
      );
    }
    if (role === "tool" || role === "function") return;
    let text: string;
    if (typeof content === "string") text = content;
    else if (content === null || content === undefined) text = "";
    else if (Array.isArray(content)) text = readTextParts(content, `${where}.content`);
    else {
      throw new PlankitError(
        "invalid-input",
        `${where}.content must be a string or a list of content parts, got ${describeValue(content)}`,
      );
    }
    if (text.trim() !== "") dialog.push({ role: role === "developer" ? "system" : role, content: text });
  });
  return dialog;
}
