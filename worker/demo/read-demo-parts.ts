/**
 * Requests of several parts: "convert 3 miles to km and 10 lbs to kg".
 *
 * @module
 */
import type { DemoIntent, DemoPart } from "./demo-intent.ts";

/** A stretch of the request, between separators. */
interface Piece {
  start: number;
  end: number;
  /** Whether it starts a sentence (after "?", "!", ";", ". " or a new line), not after a comma or "and". */
  sentence: boolean;
}

/** A part of the request as read: what it asks, or `undefined` when the model cannot do it. */
interface ReadPart {
  start: number;
  end: number;
  intent: DemoPart | undefined;
}

const separators =
  /[?!;？！；。\n]+\s*|\.(?=\s|$)\s*|,(?!\d)\s*|，\s*|\s+[-–—]\s+|\s+(?:and|&|also|then|as well as|plus tell me)\s+/giu;
const leadingJoins = /^(?:(?:and|also|then|plus|but|so|&)\s+)+/iu;
const questionOrCommand =
  /^(?:what|what's|whats|how|who|whom|whose|where|when|which|why|is|are|was|were|will|would|does|do|did|can|could|should|shall|tell|give|show|convert|calculate|compute|work out|find|look up|lookup|get|list|write|book|translate|play|send|order|remind|set|make|draw|sing|explain|describe|please|pls|i want|i'd like|i need)\b/iu;
const conversionShape = /\d[\d,.]*\s*\p{L}[\p{L}\s]*\s(?:to|into|in)\s+\p{L}/u;
/** Words that lean on what was said before: "what is that in feet?", "what was my pace?". */
const refersBack =
  /\b(?:it|its|that|this|these|those|them|they|their|there|we|us|our|i|me|my|mine|both|each|together|combined|altogether|the (?:result|answer|sum|total|difference))\b/iu;

/**
 * The keys of what an intent asks, to tell whether one reading covers another.
 *
 * @param intent - a reading.
 * @returns its keys.
 */
function keysOf(intent: DemoIntent): string[] {
  switch (intent.kind) {
    case "facts":
      return [
        ...intent.lookups.map((lookup) => `fact:${lookup.attribute}|${lookup.subject}`),
        ...(intent.combination === undefined ? [] : [`combine:${intent.combination}`]),
        ...(intent.targetUnit === undefined ? [] : [`unit:${intent.targetUnit}`]),
      ];
    case "time":
      return intent.subjects.length === 0 ? ["time:"] : intent.subjects.map((subject) => `time:${subject}`);
    case "leap-years":
      return intent.years.map((year) => `leap:${year}`);
    case "several":
      return intent.parts.flatMap(keysOf);
    case "decline":
      return [];
    default:
      return [JSON.stringify(intent)];
  }
}

/**
 * Whether every key of the parts is a key of the whole.
 *
 * @param whole - one reading.
 * @param parts - other readings.
 * @returns whether the whole asks all the parts ask.
 */
function covers(whole: DemoIntent, parts: readonly DemoIntent[]): boolean {
  const keys = new Set(keysOf(whole));
  return parts.flatMap(keysOf).every((key) => keys.has(key));
}

/**
 * Whether a reading accounts for a piece the model could not read alone:
 * the piece writes numbers, and the reading uses each ("are 1996" of "are
 * 1996 and 2000 leap years").
 *
 * @param whole - the reading of the whole request.
 * @param words - the piece.
 * @returns whether the reading uses every number of the piece.
 */
function accounts(whole: DemoIntent, words: string): boolean {
  const numbers = words.replace(/(\d),(?=\d{3}\b)/gu, "$1").match(/\d+(?:\.\d+)?/gu) ?? [];
  const used = JSON.stringify(whole);
  return (
    numbers.length > 0 &&
    numbers.every((number) => new RegExp(`(?<![\\d.])${number.replace(".", "\\.")}(?![\\d.])`, "u").test(used))
  );
}

/**
 * Cuts a request at its separators: "?", "!", ";", ". ", ", " (not a
 * thousands separator), " - ", " and ", " also ", " then ".
 *
 * @param text - the request.
 * @returns the pieces, in order, none empty.
 */
function cut(text: string): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  let sentence = true;
  const push = (end: number, next: boolean): void => {
    const raw = text.slice(start, end);
    const lead = (leadingJoins.exec(raw.trimStart())?.[0].length ?? 0) + (raw.length - raw.trimStart().length);
    const from = start + lead;
    const to = start + raw.trimEnd().length;
    if (to > from) pieces.push({ start: from, end: to, sentence });
    sentence = next;
  };
  for (const match of text.matchAll(separators)) {
    push(match.index, /[?!;？！；。\n.]/u.test(match[0]));
    start = match.index + match[0].length;
  }
  push(text.length, true);
  return pieces;
}

/**
 * Reads a request of several parts. The request is cut at its separators;
 * a piece that asks nothing on its own ("Berlin", "hers is 165 cm") belongs
 * to the question before it, or, at the start of a sentence, to the one
 * after it ("I ran 5 km in 27 minutes, what's my pace?"). Each question is
 * then read on its own; one that the model cannot read on its own but that
 * refers back ("what is that in feet?") is read with the question before
 * it, and counts only when that adds something — or, when it asks only
 * what the question before asks already ("compare A and B and compute
 * their ratio"), it is done by that one. The whole request read at
 * once wins when it asks all the parts ask (a sum over both parts, say)
 * and no part is left undone.
 *
 * @param text - the request.
 * @param readOne - reads one request.
 * @param signalsOf - what a text asks for that the model reads (attributes, combinations, units), to compare parts.
 * @returns the whole's reading; or `several` with the parts it can do and
 *   the words of those it cannot; or a decline when it can do none.
 *
 * @example
 * ```ts
 * readDemoParts("convert 3 miles to km and 10 lbs to kg", readOne, signalsOf);
 * // { kind: "several", parts: [{ kind: "convert", value: 3, … }, { kind: "convert", value: 10, … }], notDone: [] }
 * ```
 */
export function readDemoParts(
  text: string,
  readOne: (text: string) => DemoIntent,
  signalsOf: (text: string) => string[],
): DemoIntent {
  const whole = readOne(text);
  const pieces = cut(text);
  if (pieces.length < 2) return whole;
  const asks = (piece: Piece): boolean => {
    const words = text.slice(piece.start, piece.end);
    return questionOrCommand.test(words) || conversionShape.test(words) || readOne(words).kind !== "decline";
  };
  const groups: { start: number; end: number }[] = [];
  let pending: number | undefined;
  for (const piece of pieces) {
    if (asks(piece)) {
      groups.push({ start: pending ?? piece.start, end: piece.end });
      pending = undefined;
    } else if (groups.length > 0 && !piece.sentence && pending === undefined) {
      const last = groups.at(-1);
      if (last !== undefined) last.end = piece.end;
    } else pending ??= piece.start;
  }
  const tail = groups.at(-1);
  if (pending !== undefined) {
    if (tail === undefined) return whole;
    tail.end = text.length;
  }
  if (groups.length < 2) return whole;

  const parts: ReadPart[] = [];
  for (const group of groups) {
    const intent = readOne(text.slice(group.start, group.end));
    if (intent.kind !== "decline" && intent.kind !== "several" && intent.kind !== "save-answer") {
      parts.push({ ...group, intent });
      continue;
    }
    if (intent.kind === "several") {
      for (const part of intent.parts) parts.push({ ...group, intent: part });
      continue;
    }
    const before = parts.at(-1);
    const words = text.slice(group.start, group.end);
    if (before !== undefined && refersBack.test(words)) {
      const joined = readOne(text.slice(before.start, group.end));
      const earlier = before.intent === undefined ? [] : [before.intent];
      if (joined.kind !== "decline" && joined.kind !== "several" && joined.kind !== "save-answer") {
        if (!covers(before.intent ?? { kind: "decline", reason: "not-understood" }, [joined])) {
          if (before.intent !== undefined && covers(joined, earlier)) parts.pop();
          parts.push({ start: before.start, end: group.end, intent: joined });
          continue;
        }
        // "compare A and B and compute their ratio": the part asks again what the one before asks already.
        const asked = signalsOf(words);
        const known = new Set(signalsOf(text.slice(before.start, before.end)));
        if (before.intent !== undefined && asked.length > 0 && asked.every((signal) => known.has(signal))) continue;
      }
    }
    parts.push({ ...group, intent: undefined });
  }

  const done = parts.flatMap((part) => (part.intent === undefined ? [] : [part.intent]));
  const notDone = parts.flatMap((part) =>
    part.intent === undefined ? [text.slice(part.start, part.end).replace(/[\s,;:.?!]+$/u, "")] : [],
  );
  if (whole.kind !== "decline" && covers(whole, done) && notDone.every((words) => accounts(whole, words))) return whole;
  const unique = done.filter(
    (intent, index) => done.findIndex((other) => keysOf(other).join("\n") === keysOf(intent).join("\n")) === index,
  );
  if (unique.length === 0) return { kind: "decline", reason: "not-understood" };
  if (unique.length === 1 && notDone.length === 0) return unique[0] ?? whole;
  return { kind: "several", parts: unique, notDone };
}
