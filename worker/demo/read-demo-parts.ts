/**
 * Requests of several parts: "convert 3 miles to km and 10 lbs to kg".
 *
 * @module
 */
import type { DemoIntent, DemoNotDone, DemoPart } from "./demo-intent.ts";
import { findUnit } from "./find-unit.ts";

/**
 * Whether two units measure the same thing.
 *
 * @param first - a unit's symbol or name.
 * @param second - another's.
 * @returns whether both are known and of one dimension.
 */
function sameDimension(first: string, second: string): boolean {
  const dimension = findUnit(first)?.dimension;
  return dimension !== undefined && dimension === findUnit(second)?.dimension;
}

/** A stretch of the request, between separators. */
interface Piece {
  start: number;
  end: number;
  /** Whether it starts a sentence (after "?", "!", ";", ". " or a new line), not after a comma or "and". */
  sentence: boolean;
  /** Whether it comes before the question it was read with ("Out of curiosity, how tall is Everest?"). */
  leading?: boolean;
}

/** A part of the request as read: what it asks, or `undefined` when the model cannot do it. */
interface ReadPart {
  start: number;
  end: number;
  intent: DemoPart | undefined;
  /** The pieces that asked nothing on their own and were read with it. */
  extras: Piece[];
  /** A part not done, when it is not the whole stretch for want of a rule. */
  notDone?: DemoNotDone;
}

const separators =
  /[?!;？！；。\n]+\s*|\.(?=\s|$)\s*|,(?!\d)\s*|，\s*|\s+[-–—]\s+|\s+(?:and|&|also|then|as well as)\s+/giu;
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
    // Measurements by value and unit, so that a total over three of them covers a part that converts one.
    case "convert":
      return [`quantity:${intent.value}|${intent.from}`, `unit:${intent.to}`];
    case "measures":
      return [
        ...intent.groups.flat().map((part) => `quantity:${part.value}|${part.unit}`),
        `combine:${intent.combination}`,
        `unit:${intent.to}`,
      ];
    case "pace":
    case "speed":
      return [
        ...[intent.distance, ...intent.time].map((part) => `quantity:${part.value}|${part.unit}`),
        intent.kind === "pace" ? `pace:${intent.per}` : `speed:${intent.unit}`,
      ];
    case "travel-time":
      return [intent.distance, intent.speed].map((part) => `quantity:${part.value}|${part.unit}`);
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
  const numbersOf = (text: string): number[] =>
    (text.replace(/(\d),(?=\d{3}\b)/gu, "$1").match(/\d+(?:\.\d+)?/gu) ?? []).map(Number);
  const numbers = numbersOf(words);
  const used = new Set(numbersOf(JSON.stringify(whole)));
  return numbers.length > 0 && numbers.every((number) => used.has(number));
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

/** What {@link readDemoParts} asks of the reader of single requests. */
export interface DemoPartReader {
  /** Reads one request. */
  read: (text: string) => DemoIntent;
  /** What a text asks for that the model reads (attributes, combinations, units), as keys. */
  signals: (text: string) => string[];
  /** The knowledge base subjects a text names. */
  subjects: (text: string) => string[];
  /** Whether the model has a use for a word: a question word, a subject's, a unit, a number, a word of its rules. */
  knows: (word: string) => boolean;
}

/**
 * A lead-in that asks for nothing ("Out of curiosity", "Sorry to bother you"):
 * no number, no name after its first word, no "a", "an" or "the" before a
 * noun ("A poem please" asks for something).
 */
const preamble = /^(?!.*\d)(?!.*\b(?:a|an|the)\s+\p{L})\S+(?:\s+[\p{Ll}'’]+)*$/iu;

/** Words that add nothing to a request: politeness, hedges, addresses. */
const filler =
  /^(?:please|pls|thanks|thank|you|cheers|mate|friend|buddy|pal|sir|madam|ok|okay|hey|hi|hello|good|morning|afternoon|evening|for|me|us|the|a|an|and|or|of|in|at|on|to|is|are|was|be|it|that|this|there|then|also|too|as|well|both|each|all|just|now|exactly|roughly|approximately|about|quickly|again|combined|together|altogether|total)$/iu;

/**
 * Whether a reading explains a piece: a statement whose numbers the reading
 * uses; or a piece whose every word the model has a use for, and whose
 * numbers, subjects or something it names that the model reads (an
 * attribute, a combination, a unit) the reading uses — or that says nothing
 * more than "please".
 * "the weather there" is explained by nothing, so it is not done.
 *
 * @param words - the piece.
 * @param intent - the reading of its part.
 * @param reader - the reader.
 * @returns whether the piece is explained.
 */
function explains(words: string, intent: DemoIntent, reader: DemoPartReader): boolean {
  const used = JSON.stringify(intent);
  // A statement of measurements the reading uses ("my brother is 176 lbs"), whatever its other words.
  if (/\d/u.test(words) && !questionOrCommand.test(words) && accounts(intent, words)) return true;
  // Otherwise every word must be one the model has a use for ("the weather there" has "weather").
  const lowerUsed = used.toLowerCase();
  const tokens = words.split(/[^\p{L}\p{N}'’.]+/u).filter((word) => word !== "");
  const knowsAll = tokens.every(
    (word) => filler.test(word) || reader.knows(word) || lowerUsed.includes(word.toLowerCase().replace(/[.'’]+$/u, "")),
  );
  if (!knowsAll) return false;
  if (/\d/u.test(words) && accounts(intent, words)) return true;
  const subjects = reader.subjects(words);
  if (subjects.length > 0 && subjects.every((subject) => used.includes(JSON.stringify(subject)))) return true;
  // A name the knowledge base lacks, looked up as written ("… and El Dorado").
  const names = words.match(/\b[A-Z][\p{L}'-]+/gu) ?? [];
  const looked = intent.kind === "facts" ? intent.lookups.map((lookup) => lookup.subject).join(" ") : "";
  if (names.length > 0 && names.every((name) => looked.includes(name))) return true;
  const keys = keysOf(intent);
  const uses = (signal: string): boolean =>
    keys.some(
      (key) => key === signal || key.startsWith(`fact:${signal}|`) || (signal === "time" && key.startsWith("time:")),
    );
  if (reader.signals(words).some(uses)) return true;
  return words
    .split(/[^\p{L}\p{N}']+/u)
    .filter((word) => word !== "")
    .every((word) => filler.test(word));
}

/**
 * Reads a request of several parts. The request is cut at its separators;
 * a piece that asks nothing on its own ("Berlin", "hers is 165 cm") belongs
 * to the question before it, or, at the start of a sentence, to the one
 * after it ("I ran 5 km in 27 minutes, what's my pace?") — and when the
 * reading of that question does not explain it ("the weather there"), it is
 * a part not done. Each question is then read on its own; one that the
 * model cannot read on its own but that refers back ("what is that in
 * feet?") is read with the question before it, and counts only when that
 * adds something — or, when it asks only what the question before asks
 * already ("compare A and B and compute their ratio"), it is done by that
 * one; one that names what it asks but not of what ("What's the population
 * and the GDP of France?") is read with the question after it. The whole
 * request read at once wins when it asks all the parts ask
 * (a sum over both parts, say) and accounts for any part left.
 *
 * @param text - the request.
 * @param reader - reads single requests and names what they ask.
 * @returns the whole's reading; or `several` with the parts it can do and
 *   the words of those it cannot; or a decline when it can do none.
 *
 * @example
 * ```ts
 * readDemoParts("convert 3 miles to km and 10 lbs to kg", reader);
 * // { kind: "several", parts: [{ kind: "convert", value: 3, … }, { kind: "convert", value: 10, … }], notDone: [] }
 * ```
 */
export function readDemoParts(text: string, reader: DemoPartReader): DemoIntent {
  const readOne = reader.read;
  const whole = readOne(text);
  const pieces = cut(text);
  const asks = (piece: Piece): boolean => {
    const words = text.slice(piece.start, piece.end);
    return questionOrCommand.test(words) || conversionShape.test(words) || readOne(words).kind !== "decline";
  };
  const groups: { start: number; end: number; extras: Piece[]; head: Piece }[] = [];
  let pending: Piece[] = [];
  for (const piece of pieces) {
    const last = groups.at(-1);
    if (asks(piece)) {
      const leading = pending.map((before) => ({ ...before, leading: true }));
      groups.push({ start: pending[0]?.start ?? piece.start, end: piece.end, extras: leading, head: piece });
      pending = [];
    } else if (last !== undefined && !piece.sentence && pending.length === 0) {
      last.end = piece.end;
      last.extras.push(piece);
    } else pending.push(piece);
  }
  const tail = groups.at(-1);
  if (tail === undefined) return whole;
  if (pending.length > 0) {
    tail.end = pending.at(-1)?.end ?? tail.end;
    tail.extras.push(...pending);
  }

  const parts: ReadPart[] = [];
  for (const [index, group] of groups.entries()) {
    let intent = readOne(text.slice(group.start, group.end));
    // The pieces read with a question can spoil its reading ("… of 2,340. Then recommend a good book"):
    // then it is read alone, and they are weighed as pieces of their own.
    if (intent.kind === "decline" && group.extras.length > 0)
      intent = readOne(text.slice(group.head.start, group.head.end));
    const earlier = parts.at(-1);
    if (intent.kind === "time" && intent.subjects.length === 0 && earlier !== undefined) {
      // "…New York, and what time is it there?": the place is in the question before.
      const joined = readOne(text.slice(earlier.start, group.end));
      if (/\b(?:there|that city|that place)\b/iu.test(text.slice(group.start, group.end)) && joined.kind === "time")
        intent = joined;
    }
    if (intent.kind !== "decline" && intent.kind !== "several" && intent.kind !== "save-answer") {
      parts.push({ ...group, intent });
      continue;
    }
    if (intent.kind === "several") {
      for (const part of intent.parts) parts.push({ ...group, intent: part });
      for (const notDone of intent.notDone) parts.push({ ...group, intent: undefined, extras: [], notDone });
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
          parts.push({ start: before.start, end: group.end, intent: joined, extras: group.extras });
          continue;
        }
        // "10 km in miles, and what is that in feet?": the same measurement in another unit of its dimension.
        const unit = reader
          .signals(words)
          .find((signal) => signal.startsWith("unit:"))
          ?.slice("unit:".length);
        const from = before.intent?.kind === "convert" ? before.intent : undefined;
        if (from !== undefined && unit !== undefined && unit !== from.to && sameDimension(from.from, unit)) {
          parts.push({ ...group, intent: { kind: "convert", value: from.value, from: from.from, to: unit } });
          continue;
        }
        // "compare A and B and compute their ratio": the part asks again what the one before asks already.
        const asked = reader.signals(words);
        const known = new Set(reader.signals(text.slice(before.start, before.end)));
        if (before.intent !== undefined && asked.length > 0 && asked.every((signal) => known.has(signal))) continue;
      }
    }
    const next = groups[index + 1];
    if (next !== undefined && reader.signals(words).length > 0 && reader.subjects(words).length === 0) {
      // "What's the population and the GDP of France?": the subject comes in the part after.
      const joined = readOne(text.slice(group.start, next.end));
      const after = readOne(text.slice(next.start, next.end));
      if (
        joined.kind !== "decline" &&
        joined.kind !== "several" &&
        joined.kind !== "save-answer" &&
        !covers(after, [joined])
      ) {
        parts.push({ ...group, intent: joined });
        continue;
      }
    }
    // A number it cannot read whole ("1e309") is why, rather than a missing rule.
    const unread = intent.kind === "decline" && intent.reason === "unread-number";
    parts.push({
      ...group,
      intent: undefined,
      extras: [],
      ...(unread
        ? {
            notDone: {
              words: text.slice(group.start, group.end).replace(/[\s,;:.?!]+$/u, ""),
              reason: "unread-number",
            },
          }
        : {}),
    });
  }

  const trim = (words: string): string => words.replace(/[\s,;:.?!]+$/u, "");
  const done = parts.flatMap((part) => (part.intent === undefined ? [] : [part.intent]));
  const notDone = parts.flatMap((part): DemoNotDone[] => {
    if (part.intent === undefined)
      return [part.notDone ?? { words: trim(text.slice(part.start, part.end)), reason: "no-rule" }];
    const { intent } = part;
    return part.extras
      .filter((piece) => !(piece.leading === true && preamble.test(text.slice(piece.start, piece.end))))
      .map((piece) => text.slice(piece.start, piece.end))
      .filter((words) => !explains(words, intent, reader))
      .map((words) => ({ words: trim(words), reason: "no-rule" }));
  });
  // Pieces of one question ("Which is taller, Everest or Fuji, and by how much?") that the whole explains
  // ("Can you book me a hotel in Tokyo" is a request of its own: it has words the model has no use for).
  if (
    whole.kind !== "decline" &&
    covers(whole, done) &&
    notDone.every((part) => part.reason === "no-rule" && explains(part.words, whole, reader))
  )
    return whole;
  const unique = done.filter(
    (intent, index) => done.findIndex((other) => keysOf(other).join("\n") === keysOf(intent).join("\n")) === index,
  );
  if (unique.length === 0) return whole.kind === "decline" ? whole : { kind: "decline", reason: "not-understood" };
  if (unique.length === 1 && notDone.length === 0) return unique[0] ?? whole;
  const once = notDone.filter((part, index) => notDone.findIndex((other) => other.words === part.words) === index);
  return { kind: "several", parts: unique, notDone: once };
}
