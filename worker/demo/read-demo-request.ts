/**
 * The offline demo model's reading of a request.
 *
 * @module
 */
import { chineseSubjectNames } from "./chinese-names.ts";
import type { DemoCombination, DemoIntent, DemoLookup, DemoNotDone } from "./demo-intent.ts";
import { extractExpression } from "./extract-expression.ts";
import { findConversion } from "./find-conversion.ts";
import { findLeapYears } from "./find-leap-years.ts";
import { findNote } from "./find-note.ts";
import { findQuantities } from "./find-quantities.ts";
import { findSubjects } from "./find-subjects.ts";
import { findUnit, unitNames } from "./find-unit.ts";
import { findUnknownListedSubjects, findUnknownSubject } from "./find-unknown-subjects.ts";
import { findUnreadNumber } from "./find-unread-number.ts";
import type { KnowledgeFact } from "./knowledge-fact.ts";
import { knowledgeFacts } from "./knowledge-facts.ts";
import { readDemoParts } from "./read-demo-parts.ts";
import { readNumbers } from "./read-numbers.ts";
import { readQuantityRequest } from "./read-quantity-request.ts";
import { writePlainNumbers } from "./write-plain-numbers.ts";

/** Words that name an attribute, and the knowledge base attributes they stand for, most likely first. */
const attributeWords: readonly [RegExp, readonly string[]][] = [
  [
    /\b(?:populations?|populous|inhabitants|residents|how many people|people live|people in)\b|人口|多少人/u,
    ["population"],
  ],
  [
    /\b(?:heights?|tall|taller|tallest|high|higher|highest|elevation|altitude)\b|高度|海拔|多高|高多少|更高|高/u,
    ["height"],
  ],
  [/\b(?:areas?|surface|how big)\b|面积/u, ["area"]],
  [/\b(?:lengths?|long|longer|longest)\b|长度|多长|长多少|更长/u, ["length", "distance"]],
  [/\b(?:distances?|far|away)\b|距离|多远/u, ["distance from Earth", "distance"]],
  [/\b(?:speed|fast)\b|速度|多快/u, ["speed"]],
  [/\b(?:built|completed|opened)\b|建成|完工/u, ["year completed"]],
  [/\bcircumference\b|周长/u, ["circumference"]],
  [/\bradius\b|半径/u, ["radius"]],
  [/\bboil(?:s|ing)?\b|沸点/u, ["boiling point"]],
  [/\btime ?zones?\b|时区/u, ["time zone"]],
];

const timeWords =
  /\b(?:what time|current time|time is it|time now|local time|the time in|time in|the time there|tell me the time|what'?s the time|date today|today'?s date)\b|几点|现在时间|当前时间|时间是/u;
const greetingWords =
  /^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|help|what can you do)\b|^\s*(?:你好|您好|嗨)/u;

/**
 * Which combination of looked-up numbers a request asks for.
 *
 * @param lower - the lowercased request.
 * @returns the combination, or `undefined`.
 */
function findCombination(lower: string): DemoCombination | undefined {
  if (
    /\bdensity\b|people per (?:square|km|sq)|per (?:km²|km2|sq(?:uare)?\.? ?(?:km|kilomet))|人口密度|每平方公里/u.test(
      lower,
    )
  )
    return "per-area";
  if (/\bper (?:person|capita|inhabitant|head)\b|\beach (?:person|inhabitant)\b|人均|每人/u.test(lower))
    return "per-capita";
  if (
    /\bhow many times\b|\bratio\b|\bdivided by\s+(?!-?\d)|\btimes (?:as|more|bigger|larger|taller|higher|longer)\b|几倍|多少倍|比例/u.test(
      lower,
    )
  )
    return "ratio";
  if (/\bhow many\b.*\b(?:fit|fits|stacked|stack|end to end|laid|reach)\b|能放下|相当于多少个/u.test(lower))
    return "fit";
  if (
    /\b(?:difference|differ|minus|by how much|how much (?:taller|higher|longer|bigger|larger|more|shorter|smaller)|(?:taller|higher|longer|bigger|larger|shorter|smaller) than|more than|which is (?:taller|higher|longer|bigger))\b|相差|差多少|比.+(?:高|长|多|大)多少/u.test(
      lower,
    )
  )
    return "difference";
  if (/\b(?:combined|total|together|sum|altogether|plus)\b|加起来|总共|合计|一共|总和/u.test(lower)) return "sum";
  if (/\b(?:compare[ds]?|comparing|comparison|versus|vs)\b|比较|对比/u.test(lower)) return "ratio";
  return undefined;
}

/**
 * The subjects of the knowledge base a request names, in order, in English or Chinese.
 *
 * @param query - the request.
 * @returns the subjects as the knowledge base spells them.
 */
function findKnownSubjects(query: string): string[] {
  // Plurals ("how many marathons", "Eiffel Towers") name the subject too; a blank keeps the positions.
  const singular = query.replace(/(\p{L}{3,}?)s\b/gu, "$1 ");
  const found = [...findSubjects(query), ...findSubjects(singular)].map((mention) => ({
    subject: mention.subject,
    index: mention.index,
  }));
  let rest = query;
  for (const [name, subject] of [...chineseSubjectNames].sort((a, b) => b[0].length - a[0].length)) {
    for (let at = rest.indexOf(name); at !== -1; at = rest.indexOf(name)) {
      found.push({ subject, index: at });
      rest = `${rest.slice(0, at)}${"#".repeat(name.length)}${rest.slice(at + name.length)}`;
    }
  }
  const first = new Map<string, number>();
  for (const { subject, index } of found) first.set(subject, Math.min(index, first.get(subject) ?? Infinity));
  const order = [...first].sort((a, b) => a[1] - b[1]).map(([subject]) => subject);
  return order;
}

/**
 * The facts the knowledge base has about a subject (the model knows the subject list, as a model knows its tools).
 *
 * @param subject - the subject.
 * @returns its facts.
 */
function factsOf(subject: string): KnowledgeFact[] {
  return knowledgeFacts.filter((fact) => fact.subject === subject);
}

/**
 * Picks, for each subject, the fact of one of the attributes asked for; with
 * none asked for and two or more subjects, the first attribute they all
 * have with the same unit ("how many Eiffel Towers reach the top of the
 * Burj Khalifa" compares heights).
 *
 * @param subjects - the subjects.
 * @param attributes - the attributes asked for, most likely first.
 * @returns one lookup per subject, or `undefined` when they cannot be matched.
 */
function chooseLookups(subjects: readonly string[], attributes: readonly string[]): DemoLookup[] | undefined {
  if (attributes.length > 0) {
    return subjects.map((subject) => {
      const fact = attributes
        .map((attribute) => factsOf(subject).find((candidate) => candidate.attribute === attribute))
        .find((candidate) => candidate !== undefined);
      // A subject without the attribute is looked up anyway: the lookup says the knowledge base has no such fact.
      return fact === undefined
        ? { attribute: attributes[0] ?? "", subject }
        : { attribute: fact.attribute, subject, unit: fact.unit };
    });
  }
  if (subjects.length < 2) return undefined;
  const [first, ...others] = subjects;
  for (const fact of factsOf(first ?? "")) {
    if (typeof fact.value !== "number") continue;
    const matches = others.map((subject) =>
      factsOf(subject).find((candidate) => typeof candidate.value === "number" && candidate.unit === fact.unit),
    );
    if (matches.every((match) => match !== undefined)) {
      return [
        { attribute: fact.attribute, subject: fact.subject, unit: fact.unit },
        ...matches.map((match) => ({ attribute: match.attribute, subject: match.subject, unit: match.unit })),
      ];
    }
  }
  return undefined;
}

/**
 * A unit the request asks a looked-up value in: "… in feet", "…是多少英尺".
 *
 * @param lower - the lowercased request.
 * @returns the unit symbol, or `undefined`.
 */
function findTargetUnit(lower: string): string | undefined {
  for (const name of unitNames()) {
    if (name.length < 2) continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");
    if (new RegExp(`\\b(?:in|to|into|as)\\s+${escaped}(?![\\p{L}\\d²³])`, "u").test(lower))
      return findUnit(name)?.symbol;
  }
  return undefined;
}

/**
 * Reads a request the way the offline demo model understands requests:
 * by rules over the words of the request, in English or Chinese, never by
 * guessing. In order: a note to save (title and text from the request); a
 * number to convert ("3.5 days to seconds"); the time somewhere; facts of
 * the knowledge base, one or several, maybe combined (sum, difference,
 * ratio, how many fit, per area, per person) or converted ("in feet");
 * an attribute of a subject it does not know (looked up, so that the
 * lookup says the knowledge base has nothing); arithmetic. "… and save it
 * as a note" saves the answer of the rest. Anything else is declined.
 *
 * @param query - the request.
 * @returns what the request asks.
 *
 * @example
 * ```ts
 * readDemoRequest("How much taller is Everest than Fuji?");
 * // { kind: "facts", lookups: [{ attribute: "height", subject: "Mount Everest", unit: "m" }, …], combination: "difference" }
 * ```
 */
export function readDemoRequest(query: string): DemoIntent {
  const readAll = (text: string): DemoIntent =>
    findNote(text.trim()) === undefined
      ? readDemoParts(text, {
          read: readRequest,
          signals: readSignals,
          subjects: findKnownSubjects,
          knows: knowsWord,
        })
      : readRequest(text);
  const saved =
    /^(.+?)[,;\s]+(?:and\s+|then\s+)*(?:save|store|keep|note)\s+(?:it|this|that|them|the (?:results?|answers?))(?:\s+(?:as|in|into)\s+(?:a\s+)?notes?)?\s*[.!]?$/iu.exec(
      query.trim(),
    );
  if (saved !== null) {
    const of = readAll(saved[1] ?? "");
    if (of.kind === "decline" || of.kind === "note" || of.kind === "save-answer") return of;
    const title = (saved[1] ?? "")
      .trim()
      .replace(/[,;]+$/u, "")
      .slice(0, 100);
    return { kind: "save-answer", of, title: title.charAt(0).toUpperCase() + title.slice(1) };
  }
  // "What is 2 to the power of 10, and save a note titled power with the text 1024": the question, then the note.
  const noteAfter =
    /^(.+?)[,;.]?\s+(?:(?:and|then|also|&)\s+)+((?:please\s+)?(?:save|take|make|write|add|create|jot down)\s+(?:a|this|the)?\s*note\b.*)$/iu.exec(
      query.trim(),
    ) ??
    /^(.+?)[，,；;。]\s*(?:然后|再|并且?)?\s*((?:请)?(?:帮我)?(?:保存|记|新建)(?:一条|一个)?笔记.*)$/u.exec(
      query.trim(),
    );
  const note = noteAfter === null ? undefined : readRequest(noteAfter[2] ?? "");
  if (noteAfter !== null && note?.kind === "note") {
    const first = readAll(noteAfter[1] ?? "");
    const words = (noteAfter[1] ?? "").trim().replace(/[\s,;:.?!]+$/u, "");
    if (first.kind === "decline")
      return {
        kind: "several",
        parts: [note],
        notDone: [{ words, reason: first.reason === "unread-number" ? "unread-number" : "no-rule" }],
      };
    if (first.kind === "several") return { ...first, parts: [...first.parts, note] };
    if (first.kind !== "note" && first.kind !== "save-answer")
      return { kind: "several", parts: [first, note], notDone: [] };
  }
  return readAll(query);
}

/**
 * Says that the facts are not of a year the request asks about ("the
 * population of Tokyo in 1950"): the knowledge base has one figure per fact,
 * of the year its text gives, so a year none of the facts gives is a part
 * not done.
 *
 * @param intent - the facts read.
 * @param text - the request.
 * @returns the facts, or the facts and the year as a part not done.
 */
function withYearsAsked(intent: Extract<DemoIntent, { kind: "facts" }>, text: string): DemoIntent {
  const texts = intent.lookups
    .map((lookup) => factsOf(lookup.subject).find((fact) => fact.attribute === lookup.attribute)?.text ?? "")
    .join(" ");
  const years = [...text.matchAll(/\b(?:in|for|of|during|by|around|back in)\s+((?:1[0-9]|20)\d{2})\b/giu)].filter(
    (match) => !texts.includes(match[1] ?? ""),
  );
  // "Is the Eiffel Tower taller than 1,000 feet?": facts are not compared with figures the request gives.
  const figures = findQuantities(text).map((group) => {
    // As the request writes it, thousands separators included.
    const read = readNumbers(text).slice(group.start, group.end);
    const pattern = read.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&").replace(/(\d)(?=\d)/gu, "$1,?");
    return new RegExp(pattern, "iu").exec(text)?.[0] ?? read;
  });
  // "the population of Tokyo times 2", "2 times the population of Paris": a figure the facts would be combined with.
  const figure = String.raw`-?\d[\d,]*(?:\.\d+)?`;
  const operation = "times|multiplied by|divided by|over|plus|minus|added to|less";
  const stated = [...years.map((match) => match[0]), ...figures].join(" ");
  const operands = [
    new RegExp(String.raw`\b(?:${operation})\s+${figure}\b(?!\s*(?:%|percent|per cent))`, "giu"),
    new RegExp(String.raw`${figure}\s*(?:%|percent|per cent)`, "giu"),
    new RegExp(String.raw`\b${figure}\s+(?:${operation})\b`, "giu"),
  ]
    .flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[0].trim()))
    // A year or a measurement named already is not named twice.
    .filter((words) => !stated.includes(/-?\d[\d,]*(?:\.\d+)?/u.exec(words)?.[0] ?? words));
  const notDone: DemoNotDone[] = [
    ...years.map((match): DemoNotDone => ({ words: match[0], reason: "other-year" })),
    ...figures.map((words): DemoNotDone => ({ words, reason: "given-figure" })),
    ...operands.map((words): DemoNotDone => ({ words, reason: "given-figure" })),
  ];
  return notDone.length === 0 ? intent : { kind: "several", parts: [intent], notDone };
}

/** Words the rules read besides attributes, units and subjects: questions, pronouns, combinations. */
const knownWords =
  /^(?:what|what's|whats|how|many|much|which|who|is|are|was|were|be|do|does|did|can|could|would|will|should|the|a|an|of|in|on|at|to|for|from|by|and|or|with|it|its|it's|that|this|there|than|then|me|my|i|i'm|we|our|you|your|he|she|his|her|they|their|please|tell|give|show|find|calculate|compute|convert|turn|into|as|per|each|every|top|reach|stacked|stack|fit|fits|laid|end|together|combined|total|sum|plus|minus|times|divided|multiplied|percent|pace|speed|average|leap|year|years|time|now|current|today|look|up|one|both|all|hers|him|mine|yours|ours|theirs|she's|he's|we're|they're|too|also|please|thanks)$/u;

/**
 * Whether the model has a use for a word: a number, a unit, a word of a
 * knowledge base subject, a word its rules read (an attribute, a
 * combination, a question word).
 *
 * @param word - one word of a request.
 * @returns whether a rule reads it.
 */
function knowsWord(word: string): boolean {
  const lower = word
    .toLowerCase()
    .replace(/\.$/u, "")
    .replace(/['’]s$/u, "");
  if (/^\d/u.test(lower) || findUnit(lower) !== undefined || knownWords.test(lower)) return true;
  if (readSignals(lower).length > 0 || findCombination(lower) !== undefined) return true;
  return knowledgeFacts.some((fact) =>
    [fact.subject, ...fact.aliases].some((name) => name.toLowerCase().split(/\s+/u).includes(lower.replace(/s$/u, ""))),
  );
}

/**
 * What a text asks for that the model reads, as keys: the attributes, the
 * combination, a unit to give the answer in, the time.
 *
 * @param text - a part of a request.
 * @returns the keys.
 */
function readSignals(text: string): string[] {
  const lower = text.toLowerCase();
  const combination = findCombination(lower);
  const unit = findTargetUnit(lower);
  return [
    ...attributeWords.filter(([pattern]) => pattern.test(lower)).flatMap(([, list]) => list),
    ...(combination === undefined ? [] : [`combine:${combination}`]),
    ...(unit === undefined ? [] : [`unit:${unit}`]),
    ...(timeWords.test(lower) ? ["time"] : []),
  ];
}

/**
 * Reads a request that is not a request to save another's answer (see
 * {@link readDemoRequest}). A note keeps its text as written; otherwise the
 * numbers are written plainly first ({@link writePlainNumbers}), and a
 * number the rules would read only in part ({@link findUnreadNumber})
 * makes it decline, naming the number, rather than answer about a piece of
 * it.
 *
 * @param query - the request.
 * @returns what the request asks.
 */
function readRequest(query: string): DemoIntent {
  const text = query.trim();
  const note = findNote(text);
  if (note !== undefined)
    return note.text === ""
      ? { kind: "decline", reason: "note-without-text" }
      : { kind: "note", title: note.title === "" ? note.text.slice(0, 40) : note.title, text: note.text };
  const plain = writePlainNumbers(text);
  const unread = findUnreadNumber(plain, true);
  if (unread !== undefined) return { kind: "decline", reason: "unread-number", words: unread };
  const intent = readPlainRequest(plain);
  if (intent.kind === "arithmetic" || intent.kind === "decline") return intent;
  const partial = findUnreadNumber(plain, false);
  return partial === undefined ? intent : { kind: "decline", reason: "unread-number", words: partial };
}

/**
 * Reads a request whose numbers are written plainly.
 *
 * @param text - the request, trimmed.
 * @returns what the request asks.
 */
function readPlainRequest(text: string): DemoIntent {
  const lower = text.toLowerCase();

  const years = findLeapYears(text);
  if (years !== undefined) return { kind: "leap-years", years };

  const measured = readQuantityRequest(text);
  if (measured !== undefined) return measured;

  const conversion = findConversion(text);
  if (conversion !== undefined) return { kind: "convert", ...conversion };

  const subjects = findKnownSubjects(text);
  const attributes = attributeWords.filter(([pattern]) => pattern.test(lower)).flatMap(([, list]) => list);
  // "What time will I arrive…?" asks about another moment than now: not the clock's time.
  const anotherMoment =
    /\b(?:will|would|arrive|arrival|land|leave|depart|finish|start|begin|open|close|sunrise|sunset|takes?)\b/u;
  if (timeWords.test(lower) && !attributes.includes("time zone") && !anotherMoment.test(lower)) {
    return {
      kind: "time",
      subjects: subjects.filter((subject) => factsOf(subject).some((fact) => fact.attribute === "time zone")),
    };
  }

  const combination = findCombination(lower);
  const asked = attributeWords.filter(([pattern]) => pattern.test(lower)).map(([, list]) => list);
  const [subject] = subjects;
  if (subject !== undefined && subjects.length === 1 && asked.length >= 2 && combination === undefined) {
    // "How tall is the Eiffel Tower and when was it built?": one lookup per attribute asked.
    const lookups = asked.map((list) => {
      const fact = list
        .map((attribute) => factsOf(subject).find((candidate) => candidate.attribute === attribute))
        .find((candidate) => candidate !== undefined);
      return fact === undefined
        ? { attribute: list[0] ?? "", subject }
        : { attribute: fact.attribute, subject, unit: fact.unit };
    });
    const targetUnit = findTargetUnit(lower);
    return { kind: "facts", lookups, ...(targetUnit === undefined ? {} : { targetUnit }) };
  }
  if (subjects.length > 0) {
    if (combination === "per-area" || combination === "per-capita") {
      const [subject = ""] = subjects;
      const other =
        combination === "per-area" ? "area" : (attributes.find((attribute) => attribute !== "population") ?? "area");
      const unitOf = (attribute: string): Pick<DemoLookup, "unit"> => {
        const unit = factsOf(subject).find((fact) => fact.attribute === attribute)?.unit;
        return unit === undefined ? {} : { unit };
      };
      return {
        kind: "facts",
        lookups: [
          { attribute: "population", subject, ...unitOf("population") },
          { attribute: other, subject, ...unitOf(other) },
        ],
        combination,
      };
    }
    const found = chooseLookups(subjects, attributes);
    if (found !== undefined) {
      // A name beside the known ones is looked up too, so that the reply says the knowledge base lacks it.
      const unknown =
        attributes.length === 0
          ? []
          : findUnknownListedSubjects(text).map((subject) => ({ attribute: attributes[0] ?? "", subject }));
      const lookups = [...found, ...unknown];
      const targetUnit = findTargetUnit(lower);
      const intent: DemoIntent = { kind: "facts", lookups };
      if (combination !== undefined && lookups.length >= 2) intent.combination = combination;
      if (targetUnit !== undefined) intent.targetUnit = targetUnit;
      return withYearsAsked(intent, text);
    }
    // A named attribute the model has no word for: "What is the GDP of France?" is looked up as written.
    const named = /(?:\bwhat(?:'s| is| are)\s+|^(?=the\s))(?:the\s+)?([\p{L}][\p{L}\s-]{0,40}?)\s+of\s+/iu.exec(
      text,
    )?.[1];
    const [only = ""] = subjects;
    // "the Statue of Liberty" names a subject, not the attribute "Statue" of it.
    const ownName = factsOf(only).some((fact) =>
      [fact.subject, ...fact.aliases].some((name) =>
        name.toLowerCase().startsWith(`${named?.trim().toLowerCase()} of`),
      ),
    );
    if (named !== undefined && subjects.length === 1 && !ownName)
      return { kind: "facts", lookups: [{ attribute: named.trim(), subject: only }] };
  }
  if (attributes.length > 0 && attributes[0] !== "time zone") {
    const unknown = findUnknownSubject(text);
    if (unknown !== undefined && subjects.length === 0)
      return { kind: "facts", lookups: [{ attribute: attributes[0] ?? "", subject: unknown }] };
  }

  const expr = extractExpression(text);
  if (expr !== undefined) return { kind: "arithmetic", expr };
  return { kind: "decline", reason: greetingWords.test(lower) ? "greeting" : "not-understood" };
}
