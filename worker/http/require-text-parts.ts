/**
 * The check that a chat request holds only content a run can read.
 *
 * @module
 */
import { HttpProblem } from "./http-problem.ts";

/** The part types a run reads, by role: text, and an assistant's refusal in Chat Completions. */
const readable: Readonly<Record<string, readonly string[]>> = {
  user: ["text"],
  system: ["text"],
  developer: ["text"],
  assistant: ["text", "refusal"],
};

/**
 * Checks that the content parts of a chat request are text: a run plans
 * with a text model and reads text only, so an image, an audio clip or a
 * file would be dropped and the answer given as if it had never been
 * sent. Chat Completions messages (`content` parts) of any role but
 * `tool`; UI messages (`parts`) of the user and the system — an
 * assistant's UI parts (steps, tool calls, reasoning) are its own record.
 *
 * @param messages - the request's messages.
 * @param member - where the parts are: `content` (Chat Completions) or `parts` (UI messages).
 * @throws HttpProblem 400 `unsupported-content`, pointing at the first other part's `type`.
 *
 * @example
 * ```ts
 * requireTextParts(body.messages, "content");
 * ```
 */
export function requireTextParts(messages: readonly Record<string, unknown>[], member: "content" | "parts"): void {
  messages.forEach((message, index) => {
    const parts = message[member];
    const role = String(message["role"]);
    if (!Array.isArray(parts) || (member === "parts" && role === "assistant")) return;
    const allowed = readable[role];
    if (allowed === undefined) return;
    parts.forEach((part: { type?: unknown }, at) => {
      if (allowed.includes(String(part.type))) return;
      const where = `messages[${index}].${member}[${at}]`;
      const type = JSON.stringify(part.type);
      const detail = `${where} is of type ${type}: this API reads text only, so the run would not see it`;
      throw new HttpProblem(400, detail, {
        code: "unsupported-content",
        errors: [{ pointer: `#/messages/${index}/${member}/${at}/type`, detail }],
      });
    });
  });
}
