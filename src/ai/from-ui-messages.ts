/**
 * AI SDK UI messages as the runtime's dialog.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../plan/describe-value.ts";
import type { DialogMessage } from "../runtime/dialog.ts";

const roles = new Set(["user", "assistant", "system"]);

/**
 * Reads the messages an AI SDK UI client sends (`useChat`'s `messages`:
 * `{ id, role, parts }`) as the runtime's dialog: each message's text parts
 * joined by blank lines (tool, file, reasoning and data parts are left out;
 * a message with no text is dropped). A message with `content` instead of
 * `parts` (the older shape) is read too.
 *
 * @param messages - the UI messages.
 * @returns the dialog, in order.
 * @throws PlankitError `invalid-input` naming the message and the value when a message is not an object with a known `role` and a `parts` list (or a `content` string).
 *
 * @example
 * ```ts
 * fromUIMessages([{ id: "m1", role: "user", parts: [{ type: "text", text: "21*2+5?" }] }]);
 * // [{ role: "user", content: "21*2+5?" }]
 * ```
 */
export function fromUIMessages(messages: readonly unknown[]): DialogMessage[] {
  if (!Array.isArray(messages)) throw new PlankitError("invalid-input", `messages must be an array of UI messages, got ${describeValue(messages)}`);
  const dialog: DialogMessage[] = [];
  messages.forEach((message: unknown, index: number) => {
    const where = `messages[${index}]`;
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw new PlankitError("invalid-input", `${where} must be an object with role and parts, got ${describeValue(message)}`);
    }
    const { role, parts, content } = message as Record<string, unknown>;
    if (typeof role !== "string" || !roles.has(role)) {
      throw new PlankitError("invalid-input", `${where}.role must be "user", "assistant" or "system", got ${describeValue(role)}`);
    }
    let text: string;
    if (Array.isArray(parts)) {
      text = parts
        .filter((part): part is { type: "text"; text: string } => typeof part === "object" && part !== null && (part as Record<string, unknown>)["type"] === "text" && typeof (part as Record<string, unknown>)["text"] === "string")
        .map((part) => part.text)
        .join("\n\n");
    } else if (typeof content === "string") {
      text = content;
    } else {
      throw new PlankitError("invalid-input", `${where}.parts must be a list of message parts, got ${describeValue(parts)}`);
    }
    if (text.trim() !== "") dialog.push({ role: role as DialogMessage["role"], content: text });
  });
  return dialog;
}
