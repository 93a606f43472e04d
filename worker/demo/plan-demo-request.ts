/**
 * The offline demo model's planning rules.
 *
 * @module
 */
import type { PlanStep } from "../../src/index.ts";
import { extractExpression } from "./extract-expression.ts";
import { findSubjects, type SubjectMention } from "./find-subjects.ts";
import { findUnit, unitNames } from "./find-unit.ts";
import type { KnowledgeFact } from "./knowledge-facts.ts";

/** What {@link planDemoRequest} plans for. */
export interface DemoPlanInput {
  /** The user's request. */
  query: string;
  /** The names of the tools the plan may use. */
  tools: ReadonlySet<string>;
  /**
   * The most steps, the reply included.
   *
   * @defaultValue `6`
   */
  maxSteps?: number;
}

/** Attribute families: a pattern in the request, and the fact attributes it stands for. */
const attributePatterns: readonly [RegExp, readonly string[]][] = [
  [/\b(?:populations?|populous|inhabitants|residents|how many people|people live|lives? in)\b/u, ["population"]],
  [/\b(?:heights?|tall|taller|tallest|high|higher|highest|elevation|altitude)\b/u, ["height"]],
  [/\b(?:areas?|square kilomet|km²|km2|surface)\b/u, ["area"]],
  [/\b(?:lengths?|long|longer|longest)\b/u, ["length", "distance"]],
  [/\b(?:distances?|far|away)\b/u, ["distance from earth", "distance"]],
  [/\b(?:speed|fast)\b/u, ["speed"]],
  [/\b(?:built|completed|opened|when was)\b/u, ["year completed"]],
  [/\bcircumference\b/u, ["circumference"]],
  [/\bradius\b/u, ["radius"]],
  [/\bboil(?:s|ing)?\b/u, ["boiling point"]],
  [/\btime ?zones?\b/u, ["time zone"]],
];

const timePattern = /\b(?:what time|current time|time is it|time now|local time|time in|the time|date today|today'?s date|what day|clock)\b/u;
const slowPattern = /\b(?:slow|deep|thorough|thoroughly|archives?|verified)\b/u;
const notePattern = /\b(?:save|note|notes|remember|store|write down|jot)\b/u;
const greetingPattern = /^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|help|what can you do)\b/u;
const writingPattern = /\b(summari[sz]e|summary|explain|describe|poem|haiku|story|tweet|fun fact)\b/u;

type Combination = "ratio" | "difference" | "sum" | "average";

/**
 * Which calculation over two or more looked-up numbers the request asks for.
 *
 * @param lower - the lowercased request.
 * @returns the calculation, or `undefined`.
 */
function findCombination(lower: string): Combination | undefined {
  if (/\b(?:ratio|how many times|times (?:as|more|bigger|larger|taller|higher|longer)|divided|proportion)\b/u.test(lower)) return "ratio";
  if (/\b(?:difference|differ|minus|subtract|more than|less than|fewer than|bigger than|larger than|smaller than|taller than|higher than|longer than|shorter than|gap)\b/u.test(lower)) return "difference";
  if (/\b(?:average|mean)\b/u.test(lower)) return "average";
  if (/\b(?:sum|total|combined|together|altogether|add up|plus)\b/u.test(lower)) return "sum";
  if (/\b(?:compare|comparison|versus|vs)\b/u.test(lower)) return "ratio";
  return undefined;
}

/**
 * The fact of a subject the request asks about: one of the requested
 * attributes if the subject has it, else its first fact that is not a time zone.
 *
 * @param mention - the subject.
 * @param attributes - the requested attributes, most likely first.
 * @returns the fact, or `undefined` when the subject has only a time zone.
 */
function pickFact(mention: SubjectMention, attributes: readonly string[]): KnowledgeFact | undefined {
  for (const attribute of attributes) {
    const fact = mention.facts.find((candidate) => candidate.attribute === attribute);
    if (fact !== undefined) return fact;
  }
  return mention.facts.find((fact) => fact.attribute !== "time zone");
}

/**
 * A unit named after "in", "to" or "into" in the request, e.g. "in feet".
 *
 * @param lower - the lowercased request.
 * @returns the unit name as written, or `undefined`.
 */
function findTargetUnit(lower: string): string | undefined {
  for (const name of unitNames()) {
    if (name.length < 2 && name !== "m") continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");
    if (new RegExp(`\\b(?:in|to|into|as)\\s+${escaped}(?![\\w²³])`, "u").test(lower)) return name;
  }
  return undefined;
}

/**
 * A conversion of a number written in the request: "10 km to miles", "100 °F in celsius".
 *
 * @param lower - the lowercased request.
 * @returns value and both unit names, or `undefined`.
 */
function findConversion(lower: string): { value: number; from: string; to: string } | undefined {
  const names = unitNames()
    .map((name) => name.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&"))
    .join("|");
  const match = new RegExp(`(-?\\d+(?:\\.\\d+)?)\\s*(${names})\\s+(?:to|in|into|as)\\s+(${names})(?![\\w²³])`, "u").exec(lower);
  if (match === null) return undefined;
  const [, value = "", from = "", to = ""] = match;
  const source = findUnit(from);
  const target = findUnit(to);
  if (source === undefined || target === undefined || source.dimension !== target.dimension) return undefined;
  return { value: Number(value), from: source.symbol, to: target.symbol };
}

/**
 * A short title for a note, from the request.
 *
 * @param query - the request.
 * @returns at most six words.
 */
function noteTitle(query: string): string {
  const words = query
    .replace(/\b(?:and\s+|then\s+|also\s+)*(?:save|store|remember|note|write down|jot down|jot)\b(?:\s+(?:it|this|that|them))?(?:\s+(?:as|in|into)\s+(?:a\s+)?notes?)?/giu, " ")
    .replace(/\bplease\b/giu, " ")
    .replace(/[^\p{L}\p{N}\s'-]+/gu, " ")
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== "")
    .slice(0, 6);
  const title = words.join(" ");
  return title === "" ? "Demo note" : (title.charAt(0).toUpperCase() + title.slice(1)).slice(0, 100);
}

/**
 * The possessive of a subject: "Tokyo's", "the Eiffel Tower's".
 *
 * @param subject - the subject.
 * @returns the possessive.
 */
function possessive(subject: string): string {
  return `${subject}${subject.endsWith("s") ? "'" : "'s"}`;
}

/**
 * Plans a request over the demo tools by keyword rules — the offline demo
 * model's "thinking". It recognises:
 *
 * - knowledge base subjects and the attribute asked for ("populations of
 *   Tokyo and Paris") → one lookup per subject, independent so they run in
 *   parallel (`slow_lookup` when the request asks for a deep or archive lookup);
 * - a ratio, difference, sum or average of two or more looked-up numbers →
 *   a `calculator` step referencing them (`{{s1.value}} / {{s2.value}}`);
 * - arithmetic written in the request → `calculator`;
 * - "10 km to miles", or a looked-up value "in feet" → `convert_units`;
 * - "what time is it in Tokyo" → the city's time zone from the knowledge
 *   base, then `current_time` with `{{s1.value}}`;
 * - "summarize", "explain", "poem" → an `llm` step over the results;
 * - "save", "note", "remember" → `save_note` (the side-effecting tool);
 * - anything else → `kb_search` and an `llm` step that answers from it;
 *
 * and ends with a reply that quotes the results and their sources. Only
 * tools in `tools` are used, and the plan keeps to `maxSteps`.
 *
 * @param input - the request, the usable tools and the step limit.
 * @returns canonical steps with ids `s1`, `s2`, …, the reply last.
 *
 * @example
 * ```ts
 * planDemoRequest({ query: "compare the populations of Tokyo and Paris and compute their ratio", tools: new Set(["kb_lookup", "calculator"]) });
 * // [kb_lookup Tokyo, kb_lookup Paris, calculator round({{s1.value}} / {{s2.value}}, 2), reply]
 * ```
 */
export function planDemoRequest(input: DemoPlanInput): PlanStep[] {
  // Braces in the request must not turn into references when the request is quoted in a step.
  const query = input.query.trim().replace(/\{\{|\}\}/gu, (pair) => `${pair[0] ?? ""} ${pair[1] ?? ""}`);
  const lower = query.toLowerCase();
  const short = query.length > 200 ? query.slice(0, 200) : query;
  const maxSteps = Math.max(1, input.maxSteps ?? 6);
  const has = (name: string): boolean => input.tools.has(name);
  const steps: PlanStep[] = [];
  const reply: string[] = [];
  const sources: string[] = [];
  const room = (count = 1): boolean => steps.length + count <= maxSteps - 1;
  const add = (step: Record<string, unknown>): string => {
    const id = `s${steps.length + 1}`;
    steps.push({ id, ...step } as PlanStep);
    return id;
  };

  const mentions = findSubjects(query);
  const attributes = attributePatterns.filter(([pattern]) => pattern.test(lower)).flatMap(([, list]) => list);
  const wantsTime = timePattern.test(lower) && !attributes.includes("time zone");
  const lookupTool = slowPattern.test(lower) && has("slow_lookup") ? "slow_lookup" : has("kb_lookup") ? "kb_lookup" : has("slow_lookup") ? "slow_lookup" : undefined;

  // Time in a place: the time zone from the knowledge base, then the clock.
  const timeSubjects = wantsTime ? mentions.filter((mention) => mention.facts.some((fact) => fact.attribute === "time zone")) : [];
  if (wantsTime && has("current_time")) {
    if (timeSubjects.length === 0 && room()) {
      const clock = add({ type: "tool", name: "current_time", arguments: {} });
      reply.push(`It is {{${clock}.local}} (UTC).`);
    }
    for (const mention of timeSubjects) {
      if (lookupTool === undefined || !room(2)) break;
      const zone = add({ type: "tool", name: lookupTool, arguments: { query: `time zone of ${mention.subject}` } });
      const clock = add({ type: "tool", name: "current_time", arguments: { timeZone: `{{${zone}.value}}` } });
      reply.push(`In ${mention.subject} it is {{${clock}.local}} ({{${clock}.timeZone}}, {{${clock}.offset}}).`);
    }
  }

  // Facts about the subjects, looked up independently so they run in parallel.
  const lookups: { id: string; fact: KnowledgeFact }[] = [];
  if (lookupTool !== undefined) {
    const factSubjects = mentions.filter((mention) => !timeSubjects.includes(mention) || attributes.length > 0);
    for (const mention of factSubjects) {
      const fact = pickFact(mention, attributes);
      if (fact === undefined || !room()) continue;
      const id = add({ type: "tool", name: lookupTool, arguments: { query: `${fact.attribute} of ${mention.subject}` } });
      lookups.push({ id, fact });
    }
    // A subject the knowledge base does not know ("population of Atlantis"): look it up anyway; the lookup fails and the run re-plans.
    const unknown = /\b(?:of|in|is)\s+((?:[A-Z][\p{L}'-]*)(?:\s+[A-Z][\p{L}'-]*)*)/u.exec(query);
    if (mentions.length === 0 && attributes.length > 0 && unknown?.[1] !== undefined && room()) {
      const attribute = attributes[0] ?? "population";
      const id = add({ type: "tool", name: lookupTool, arguments: { query: `${attribute} of ${unknown[1]}`.slice(0, 200) } });
      reply.push(`{{${id}.text}}`);
      sources.push(`{{${id}.source}}`);
    }
  }

  // A calculation over the looked-up numbers.
  const numeric = lookups.filter(({ fact }) => typeof fact.value === "number");
  const sameUnit = numeric.filter(({ fact }) => fact.unit === numeric[0]?.fact.unit);
  const combination = findCombination(lower);
  const shown = new Set<string>();
  let combined: string | undefined;
  if (combination !== undefined && sameUnit.length >= 2 && has("calculator") && room()) {
    const values = sameUnit.map(({ id }) => `{{${id}.value}}`);
    const [first, second] = sameUnit;
    const attribute = first?.fact.attribute ?? "value";
    const unit = first?.fact.unit === "people" ? "people" : (first?.fact.unit ?? "");
    const expr =
      combination === "ratio"
        ? `round(${values[0]} / ${values[1]}, 2)`
        : combination === "difference"
          ? `${values[0]} - ${values[1]}`
          : combination === "sum"
            ? values.join(" + ")
            : `round((${values.join(" + ")}) / ${values.length}, 2)`;
    combined = add({ type: "tool", name: "calculator", arguments: { expr } });
    for (const { id } of sameUnit) {
      reply.push(`{{${id}.text}}`);
      shown.add(id);
    }
    const a = first?.fact.subject ?? "";
    const b = second?.fact.subject ?? "";
    reply.push(
      combination === "ratio"
        ? `So ${possessive(a)} ${attribute} is {{${combined}.value}} times that of ${b}.`
        : combination === "difference"
          ? `The difference between ${a} and ${b} is {{${combined}.value}} ${unit}.`
          : combination === "sum"
            ? `Together that makes {{${combined}.value}} ${unit}.`
            : `On average that is {{${combined}.value}} ${unit}.`,
    );
  }

  // A looked-up value in another unit: "How tall is the Eiffel Tower in feet?"
  const target = findTargetUnit(lower);
  const targetUnit = target === undefined ? undefined : findUnit(target);
  if (targetUnit !== undefined && has("convert_units")) {
    for (const { id, fact } of numeric) {
      const unit = findUnit(fact.unit);
      if (unit === undefined || unit.dimension !== targetUnit.dimension || unit.symbol === targetUnit.symbol || !room()) continue;
      const converted = add({ type: "tool", name: "convert_units", arguments: { value: `{{${id}.value}}`, from: `{{${id}.unit}}`, to: targetUnit.symbol } });
      if (!shown.has(id)) reply.push(`{{${id}.text}}`);
      shown.add(id);
      reply.push(`That is {{${converted}.text}}.`);
    }
  }
  for (const { id } of lookups) {
    if (!shown.has(id)) reply.push(`{{${id}.text}}`);
    shown.add(id);
    sources.push(`{{${id}.source}}`);
  }

  // A number written in the request to convert: "10 km to miles".
  const conversion = findConversion(lower);
  if (conversion !== undefined && has("convert_units") && room()) {
    const id = add({ type: "tool", name: "convert_units", arguments: conversion });
    reply.push(`{{${id}.text}}.`);
  }

  // Arithmetic written in the request.
  const expression = conversion === undefined ? extractExpression(query) : undefined;
  if (expression !== undefined && has("calculator") && room()) {
    const id = add({ type: "tool", name: "calculator", arguments: { expr: expression } });
    reply.push(`{{${id}.expr}} = {{${id}.value}}.`);
  }

  // Nothing recognised: search, and answer from what the search finds.
  if (steps.length === 0 && short !== "" && !greetingPattern.test(lower) && has("kb_search") && room()) {
    const search = add({ type: "tool", name: "kb_search", arguments: { query: short, limit: 3 } });
    if (room()) {
      const answer = add({ type: "llm", prompt: `Answer the question "${short}" using only these facts from the knowledge base, and name the source: {{${search}.results}}` });
      reply.push(`{{${answer}}}`);
    } else {
      reply.push(`I searched the knowledge base and found {{${search}.count}} fact(s).`);
    }
  }

  // Writing over the results.
  const writing = writingPattern.exec(lower)?.[1];
  const texts = lookups.map(({ id }) => `{{${id}.text}}`);
  if (writing !== undefined && texts.length > 0 && room()) {
    const kind = writing.startsWith("summar") ? "a two-sentence summary" : writing === "explain" || writing === "describe" ? "a short explanation" : `a ${writing}`;
    const id = add({ type: "llm", prompt: `Write ${kind} for the user about these facts: ${texts.join(" ")}` });
    // The written text stands in for the plain facts it was written from.
    const plain = new Set(texts);
    reply.splice(0, reply.length, ...reply.filter((part) => !plain.has(part)), `{{${id}}}`);
  }

  // Saving a note: the one side-effecting tool; it waits for the finished, validated plan.
  if (notePattern.test(lower) && has("save_note") && room()) {
    const text = reply.length > 0 ? reply.join(" ") : short;
    const id = add({ type: "tool", name: "save_note", arguments: { title: noteTitle(query), text } });
    reply.push(`I saved this as the note "{{${id}.title}}".`);
  }

  if (reply.length === 0) {
    const available = ["kb_lookup", "kb_search", "calculator", "convert_units", "current_time", "slow_lookup", "save_note"].filter(has);
    reply.push(
      greetingPattern.test(lower)
        ? "Hello! I am the offline demo model. Ask me about city populations, heights of landmarks, distances, unit conversions, arithmetic or the time somewhere, e.g. \"compare the populations of Tokyo and Paris and compute their ratio\"."
        : `I could not match this request to my tools (${available.join(", ") || "none"}). Try asking about a city's population, a landmark's height, a unit conversion or some arithmetic.`,
    );
  }
  if (sources.length > 0) reply.push(`Sources: ${[...new Set(sources)].join("; ")}.`);
  add({ type: "reply", text: reply.join(" ") });
  return steps;
}
