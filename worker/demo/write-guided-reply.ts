/**
 * The offline demo model's replies in a guided conversation.
 *
 * @module
 */
import { describeGoal, renderRecordedValue } from "../../src/decide.ts";

/** An item of a `- path: value` list of the reply prompt. */
interface ListItem {
  path: string;
  rest: string;
}

/**
 * The items of a list section of the reply prompt.
 *
 * @param prompt - the reply prompt.
 * @param heading - the section's heading, without the colon.
 * @returns the items, in order.
 */
function readList(prompt: string, heading: string): ListItem[] {
  const start = prompt.indexOf(`\n${heading}:\n`);
  if (start === -1) return [];
  const items: ListItem[] = [];
  for (const line of prompt.slice(start + heading.length + 3).split("\n")) {
    const match = /^- ([^:\s]+)(?:: (.*))?$/u.exec(line);
    if (match === null) break;
    items.push({ path: match[1] ?? "", rest: match[2] ?? "" });
  }
  return items;
}

/**
 * Parses JSON, or gives the text back.
 *
 * @param text - JSON text, maybe cut short.
 * @returns the value.
 */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The `summary` leaf of the state line, when the state was not cut.
 *
 * @param prompt - the reply prompt.
 * @returns the summary, or `undefined`.
 */
function summaryInState(prompt: string): string | undefined {
  const state = parseValue(/^State: (.*)$/mu.exec(prompt)?.[1] ?? "") as
    | { data?: Record<string, Record<string, unknown>> }
    | string;
  if (typeof state !== "object" || state === null) return undefined;
  for (const group of Object.values(state.data ?? {})) {
    if (typeof group?.["summary"] === "string") return group["summary"];
  }
  return undefined;
}

/**
 * A sentence acknowledging one recorded value.
 *
 * @param path - the path recorded.
 * @param value - its value.
 * @param hasSummary - whether the turn also recorded a summary (which repeats the facts).
 * @returns the sentence, or `undefined` to say nothing.
 */
function acknowledge(path: string, value: unknown, hasSummary: boolean): string | undefined {
  switch (path) {
    case "destination":
      return `${String(value)} — noted.`;
    case "dates": {
      const dates = value as { from?: unknown; to?: unknown };
      return `Dates: ${String(dates.from)}${dates.to === undefined ? "" : ` to ${String(dates.to)}`}.`;
    }
    case "facts":
      return hasSummary ? undefined : `From the knowledge base: ${renderRecordedValue(value)}`;
    case "summary":
      return `Here is your trip: ${String(value)}`;
    case "answer":
      return String(value);
    default:
      return `Noted — ${describeGoal(path)}: ${renderRecordedValue(value)}.`;
  }
}

/**
 * Answers the guided reply prompt like a model would: a greeting when the
 * user greets, a sentence for each value the turn recorded, then a question
 * for what is still needed (`respond`) or the trip summary and a goodbye
 * (`finish`). Deterministic; reads only the prompt.
 *
 * @param prompt - the reply prompt (see `buildGuidedReplyPrompt`).
 * @returns the reply text.
 * @example
 * ```ts
 * writeGuidedReply("Kind: respond\nPhase: collect\nStill needed:\n- dates\nRecorded this turn:\n- destination: \"Tokyo\"\nReason: …\nUser message: to Tokyo\nState: {}");
 * // "Tokyo — noted. When are you travelling? For example 2026-05-01 to 2026-05-08."
 * ```
 */
export function writeGuidedReply(prompt: string): string {
  const kind = /^Kind: (\w+)$/mu.exec(prompt)?.[1] ?? "respond";
  const message = /^User message: ([\s\S]*?)\nState: /mu.exec(prompt)?.[1] ?? "";
  const needed = readList(prompt, "Still needed").map((item) => item.path);
  const recorded = readList(prompt, "Recorded this turn").map((item) => ({
    path: item.path,
    value: parseValue(item.rest),
  }));
  const hasSummary = recorded.some((item) => item.path === "summary");
  const parts: string[] = [];
  if (/^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/iu.test(message))
    parts.push("Hello! I'm the offline demo trip guide.");
  for (const { path, value } of recorded) {
    const sentence = acknowledge(path, value, hasSummary);
    if (sentence !== undefined) parts.push(sentence);
  }
  if (kind === "finish") {
    const summary = hasSummary ? undefined : summaryInState(prompt);
    if (summary !== undefined) parts.push(`Your trip is planned: ${summary}`);
    parts.push("That's everything I need — have a good trip!");
    return parts.join(" ");
  }
  const wantsPlace = needed.includes("destination");
  const wantsDates = needed.includes("dates");
  if (wantsPlace && wantsDates) parts.push("Where would you like to go, and when?");
  else if (wantsPlace) parts.push("Where would you like to go?");
  else if (wantsDates) parts.push("When are you travelling? For example 2026-05-01 to 2026-05-08.");
  for (const goal of needed.filter((path) => path !== "destination" && path !== "dates"))
    parts.push(`Could you tell me the ${describeGoal(goal)}?`);
  if (parts.length === 0) parts.push("Is there anything else you would like to know about your trip?");
  return parts.join(" ");
}
