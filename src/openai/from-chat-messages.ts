/**
 * Chat Completions messages as the runtime's dialog.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { DialogMessage } from "../events/dialog.ts";
import { describeValue } from "../shared/describe-value.ts";

/**
 * Reads the `messages` of a Chat Completions request as the runtime's
 * dialog: `system` and `developer` messages as `system`, `user` and
 * `assistant` as they are; a `content` string as it is, a list of parts as
 * its text parts joined by blank lines; `tool` messages and messages with
 * no text are left out.
 *
 * @param messages - the request's messages.
 * @returns the dialog, in order.
 * @throws PlankitError `invalid-input` naming the message and the value when a message has no known role or its content is neither a string nor a list of parts.
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
    else if (Array.isArray(content)) {
      text = content
        .filter(
          (part): part is { type: "text"; text: string } =>
            typeof part === "object" &&
            part !== null &&
            (part as Record<string, unknown>)["type"] === "text" &&
            typeof (part as Record<string, unknown>)["text"] === "string",
        )
        .map((part) => part.text)
        .join("\n\n");
    } else {
      throw new PlankitError(
        "invalid-input",
        `${where}.content must be a string or a list of content parts, got ${describeValue(content)}`,
      );
    }
    if (text.trim() !== "") dialog.push({ role: role === "developer" ? "system" : role, content: text });
  });
  return dialog;
}
