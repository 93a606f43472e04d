/**
 * The request and the conversation before it.
 *
 * @module
 */
import type { Dialog } from "../events/dialog.ts";

/**
 * Splits a dialog into the request (the last user message) and the turns before it.
 *
 * @param dialog - a string or messages.
 * @returns the query and the earlier turns as text (the last ten).
 *
 * @example
 * ```ts
 * readDialog([{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }, { role: "user", content: "Weather?" }]);
 * // { query: "Weather?", history: "user: Hi\nassistant: Hello" }
 * ```
 */
export function readDialog(dialog: Dialog): { query: string; history: string } {
  if (typeof dialog === "string") return { query: dialog, history: "" };
  let last = -1;
  for (let index = dialog.length - 1; index >= 0; index--) {
    if (dialog[index]?.role === "user") {
      last = index;
      break;
    }
  }
  if (last === -1) last = dialog.length - 1;
  const query = dialog[last]?.content ?? "";
  const history = dialog
    .slice(Math.max(0, last - 10), last)
    .map((message) => `${message.role}: ${message.content}`)
    .join("\n");
  return { query, history };
}
