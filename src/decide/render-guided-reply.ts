/**
 * The reply of a guided conversation without a model.
 *
 * @module
 */
import { describeGoal } from "./describe-goal.ts";
import type { GuidedReplyInput } from "./guided-reply-input.ts";
import { renderRecordedValue } from "./render-recorded-value.ts";

/**
 * Joins words as a list: `a`, `a and b`, `a, b and c`.
 *
 * @param items - the words.
 * @returns the list.
 */
function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`;
}

/**
 * Writes a reply from a fixed template, for conversations without a model
 * (or when the model fails): what the turn recorded, then what the phase
 * still needs (`respond`) or a closing line (`finish`).
 *
 * @param input - the reply's facts.
 * @returns the reply text.
 * @example
 * ```ts
 * renderGuidedReply({ action: "respond", phase: { id: "collect" }, missing: [{ goal: "dates" }], recorded: [{ path: "destination", value: "Tokyo", skill: "read_destination" }], reason: "", message: "", state: {} });
 * // "Noted — destination: Tokyo. Still needed: dates."
 * ```
 */
export function renderGuidedReply(input: GuidedReplyInput): string {
  const parts: string[] = [];
  if (input.recorded.length > 0) {
    parts.push(
      `Noted — ${input.recorded.map((entry) => `${describeGoal(entry.path)}: ${renderRecordedValue(entry.value).replace(/\.$/u, "")}`).join("; ")}.`,
    );
  }
  if (input.action === "finish") {
    parts.push(
      parts.length === 0
        ? "All done: every phase of this conversation is complete."
        : "That completes this conversation.",
    );
  } else if (input.missing.length > 0) {
    parts.push(`Still needed: ${listWords(input.missing.map((entry) => describeGoal(entry.goal)))}.`);
  } else if (parts.length === 0) {
    parts.push("There is nothing more I need right now.");
  }
  return parts.join(" ");
}
