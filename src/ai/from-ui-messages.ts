/**
 * AI SDK UI messages as the runtime's dialog.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { DialogMessage } from "../events/dialog.ts";
import { describeValue } from "../shared/describe-value.ts";
import { truncateJson } from "../shared/truncate-json.ts";

const roles = new Set(["user", "assistant", "system"]);
/** The longest rendering of one tool input or output in the dialog. */
const maxResultChars = 400;

/**
 * Reads the messages an AI SDK UI client sends (`useChat`'s `messages`:
 * `{ id, role, parts }`) as the runtime's dialog: each message's text parts
 * joined by blank lines, and for an assistant message the tool calls that
 * returned, as `Tool results:` lines (`- name input → output`, each cut to
 * 400 characters), so a follow-up can build on them. File, reasoning and
 * data parts are left out; a message with nothing to say is dropped. A
 * message with `content` instead of `parts` is read too: a string (the
 * older shape), or a list of parts (the AI SDK's model messages, as
 * `ToolLoopAgent` takes them).
 *
 * @param messages - the UI messages.
 * @returns the dialog, in order.
 * @throws PlankitError `invalid-input` naming the message and the value when a message is not an object with a known `role` and a `parts` list (or a `content` string or list).
 *
 * @example
 * ```ts
 * fromUIMessages([{ id: "m1", role: "user", parts: [{ type: "text", text: "21*2+5?" }] }]);
 * // [{ role: "user", content: "21*2+5?" }]
 * ```
 */
export function fromUIMessages(messages: readonly unknown[]): DialogMessage[] {
  if (!Array.isArray(messages))
    throw new PlankitError("invalid-input", `messages must be an array of UI messages, got ${describeValue(messages)}`);
  const dialog: DialogMessage[] = [];
  messages.forEach((message: unknown, index: number) => {
    const where = `messages[${index}]`;
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw new PlankitError(
        "invalid-input",
        `${where} must be an object with role and parts, got ${describeValue(message)}`,
      );
    }
    const { role, parts, content } = message as Record<string, unknown>;
    if (typeof role !== "string" || !roles.has(role)) {
      throw new PlankitError(
        "invalid-input",
        `${where}.role must be "user", "assistant" or "system", got ${describeValue(role)}`,
      );
    }
    let text: string;
    const list: unknown = Array.isArray(parts) || !Array.isArray(content) ? parts : content;
    if (Array.isArray(list)) {
      const texts: string[] = [];
      const results: string[] = [];
      for (const part of list as unknown[]) {
        if (typeof part !== "object" || part === null) continue;
        const { type, text: partText, state, toolName, input, output } = part as Record<string, unknown>;
        if (type === "text" && typeof partText === "string") texts.push(partText);
        else if (
          role === "assistant" &&
          state === "output-available" &&
          typeof type === "string" &&
          (type === "dynamic-tool" || type.startsWith("tool-"))
        ) {
          const name = typeof toolName === "string" ? toolName : type.slice("tool-".length);
          results.push(`- ${name} ${truncateJson(input, maxResultChars)} → ${truncateJson(output, maxResultChars)}`);
        }
      }
      text = texts.join("\n\n");
      if (results.length > 0) text = `${text}${text === "" ? "" : "\n\n"}Tool results:\n${results.join("\n")}`;
    } else if (typeof content === "string") {
      text = content;
    } else {
      throw new PlankitError(
        "invalid-input",
        `${where}.parts must be a list of message parts, got ${describeValue(parts)}`,
      );
    }
    if (text.trim() !== "") dialog.push({ role: role as DialogMessage["role"], content: text });
  });
  return dialog;
}
