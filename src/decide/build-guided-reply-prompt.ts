/**
 * The prompt that asks a model for a guided conversation's reply.
 *
 * @module
 */
import type { GuidedReplyInput } from "./guided-reply-input.ts";

const maxStateLength = 8_000;
const maxValueLength = 2_000;

const system = [
  "You write the assistant's next message in a guided conversation that runs in phases.",
  "Answer with the message only: plain text, no JSON, no headings, in the language of the user's message, at most five sentences.",
  'Kind "respond": acknowledge what was recorded this turn, then ask for what is still needed in one question; when nothing is needed, answer the user\'s message from the state.',
  'Kind "finish": the conversation is complete; sum up the result from what was recorded and the state, and close.',
  "Use only values from the state and from what was recorded; never invent facts, dates or numbers.",
].join("\n");

/**
 * Cuts a text to `limit` characters, marking the cut.
 *
 * @param text - the text.
 * @param limit - the most characters kept.
 * @returns the text, maybe cut.
 */
function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… (cut)` : text;
}

/**
 * Builds the system prompt and prompt that ask a model for the reply of a
 * turn: the kind (`respond` or `finish`), the phase, what is still needed
 * (each goal with the description of a skill that provides it), what the
 * turn recorded (one JSON value per line), why the turn replies now, the
 * user's message and the state (JSON, cut at 8 000 characters).
 *
 * @param input - the reply's facts.
 * @returns the system prompt and the prompt.
 * @example
 * ```ts
 * const { system, prompt } = buildGuidedReplyPrompt(input);
 * const { text } = await collectModelText(model, { system, prompt });
 * ```
 */
export function buildGuidedReplyPrompt(input: GuidedReplyInput): { system: string; prompt: string } {
  const { phase } = input;
  const lines = [
    `Kind: ${input.action}`,
    `Phase: ${phase.id}${phase.description === undefined ? "" : ` — ${phase.description}`}`,
  ];
  if (input.missing.length === 0) lines.push("Still needed: nothing");
  else {
    lines.push("Still needed:");
    for (const entry of input.missing)
      lines.push(`- ${entry.goal}${entry.hint === undefined || entry.hint === "" ? "" : `: ${entry.hint}`}`);
  }
  if (input.recorded.length === 0) lines.push("Recorded this turn: nothing");
  else {
    lines.push("Recorded this turn:");
    for (const entry of input.recorded)
      lines.push(`- ${entry.path}: ${cut(JSON.stringify(entry.value) ?? "null", maxValueLength)}`);
  }
  lines.push(`Reason: ${input.reason}`, `User message: ${input.message}`);
  const state = input.state;
  lines.push(
    `State: ${cut(JSON.stringify({ profile: state.profile ?? {}, data: state.data ?? {}, decisions: state.decisions ?? {} }), maxStateLength)}`,
  );
  return { system, prompt: lines.join("\n") };
}
