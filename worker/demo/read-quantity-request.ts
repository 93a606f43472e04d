/**
 * Requests about measurements the request itself gives.
 *
 * @module
 */
import type { DemoIntent } from "./demo-intent.ts";
import { findQuantities, type QuantityGroup } from "./find-quantities.ts";
import { findUnit, unitNames } from "./find-unit.ts";
import { readNumbers } from "./read-numbers.ts";

/** What comes before the unit an answer is asked in: "in meters", "to km" — not the "in" of "11 in in cm". */
const askedUnit = "(?<!\\d\\s*)\\b(?:in|to|into|as)\\s+";

/**
 * Escapes a text for a regular expression.
 *
 * @param text - the text.
 * @returns the escaped text.
 */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");
}

/**
 * The first unit of a dimension the text names after a word that asks for
 * it ("in meters", "per mile", "/km"), or anywhere for speed units ("mph").
 *
 * @param lower - the lowercased request.
 * @param dimension - the dimension.
 * @param before - what must come before the unit's name.
 * @returns the unit's symbol, or `undefined`.
 */
function findNamedUnit(lower: string, dimension: string, before: string): string | undefined {
  let best: { at: number; symbol: string } | undefined;
  for (const name of unitNames()) {
    const unit = findUnit(name);
    if (unit?.dimension !== dimension) continue;
    // A one-letter name ("m", "g") only where a sentence could end: "in m?", not "in a minute".
    const end = name.length < 2 ? "(?=\\s*(?:[?.!,;]|$))" : "(?![\\p{L}\\d²³/])";
    const match = new RegExp(`${before}(${escapeRegExp(name)})${end}`, "u").exec(lower);
    if (match !== null && (best === undefined || match.index < best.at))
      best = { at: match.index, symbol: unit.symbol };
  }
  return best?.symbol;
}

/**
 * The single part of a one-part measurement, or `undefined`.
 *
 * @param group - the measurement.
 * @returns its part.
 */
function single(group: QuantityGroup | undefined): QuantityGroup["parts"][number] | undefined {
  return group?.parts.length === 1 ? group.parts[0] : undefined;
}

/**
 * Reads a request about measurements it writes itself: a pace ("5 km in 27
 * minutes, pace per mile", "a marathon in 4 hours, pace per km" — the
 * marathon's distance is a fact of the knowledge base), an average speed ("150 miles in 2.5 hours, in
 * km/h"), a travel time ("300 km at 80 km/h"), measurements added or
 * subtracted ("5'11" and 165 cm, together in meters", "the difference
 * between 10 km and 5 miles"), a measurement of several units in another
 * ("5 ft 11 in in cm"), or several measurements each converted ("3 and 5
 * miles in km"). Anything else is left to the other readers.
 *
 * @param text - the request.
 * @returns what it asks, or `undefined`.
 *
 * @example
 * ```ts
 * readQuantityRequest("I ran 5 km in 27 minutes, what's my pace per mile?");
 * // { kind: "pace", distance: { value: 5, unit: "km" }, time: [{ value: 27, unit: "min" }], per: "mi" }
 * ```
 */
export function readQuantityRequest(text: string): DemoIntent | undefined {
  const lower = readNumbers(text).toLowerCase();
  const groups = findQuantities(text);
  if (groups.length === 0) return undefined;
  const of = (dimension: string): QuantityGroup[] => groups.filter((group) => group.dimension === dimension);
  const [lengths, times, speeds] = [of("length"), of("time"), of("speed")];
  // A race names its distance: the knowledge base has the marathon's.
  const race = lengths.length === 0 ? /\b(half[\s-]?)?marathon\b/u.exec(lower) : null;
  const distance =
    race === null
      ? lengths.length === 1
        ? single(lengths[0])
        : undefined
      : { value: race[1] === undefined ? 1 : 0.5, unit: "marathon" };
  const time = times.length === 1 ? times[0]?.parts : undefined;
  if (distance !== undefined && time !== undefined && groups.length === (race === null ? 2 : 1)) {
    const perLength = findNamedUnit(lower, "length", "\\bper\\s+") !== undefined;
    if (perLength || /\bpace\b|\b(?:min(?:ute)?s?|sec(?:ond)?s?)\s*(?:per|a|an|each|every|\/)\s*\p{L}/u.test(lower)) {
      const per =
        findNamedUnit(lower, "length", "(?:\\bper\\s+|\\/\\s*|\\b(?:a|an|each|every)\\s+)") ??
        (race === null ? distance.unit : "km");
      return { kind: "pace", distance, time, per };
    }
    const unit = findNamedUnit(lower, "speed", "(?<![\\p{L}])");
    if (unit !== undefined || /\b(?:speed|how fast|velocity|average)\b/u.test(lower)) {
      const byDistance = ["mi", "yd", "ft"].includes(distance.unit) ? "mph" : "km/h";
      if (race !== null && unit === undefined && !/\bspeed\b|\bhow fast\b/u.test(lower)) return undefined;
      return { kind: "speed", distance, time, unit: unit ?? byDistance };
    }
  }
  const speed = speeds.length === 1 ? single(speeds[0]) : undefined;
  if (
    distance !== undefined &&
    speed !== undefined &&
    groups.length === 2 &&
    /\b(?:how long|how much time|how many (?:hours|minutes)|takes?|travel time|duration)\b/u.test(lower)
  )
    return { kind: "travel-time", distance, speed };

  const [first] = groups;
  if (first === undefined || groups.some((group) => group.dimension !== first.dimension)) return undefined;
  const to = findNamedUnit(lower, first.dimension, askedUnit) ?? first.parts.at(-1)?.unit ?? "";
  const combination =
    /\b(?:difference|differ|how much (?:more|less|taller|shorter|heavier|lighter|longer|bigger|smaller|further|farther)|(?:taller|shorter|heavier|lighter|longer|bigger|smaller|farther|further|more|less) than)\b/u.test(
      lower,
    )
      ? "difference"
      : /\b(?:together|combined|total|sum|altogether|in all|add(?:ed)?(?: up| together)?|plus)\b/u.test(lower)
        ? "sum"
        : undefined;
  const measures = groups.map((group) => group.parts);
  // A number that is no measurement ("5 foot 6" read as 5 ft) would make any total wrong: leave it to the others.
  const measured = groups.reduce((count, group) => count + group.parts.length, 0);
  if ((lower.match(/(?<![\d.])\d+(?:\.\d+)?/gu) ?? []).length > measured) return undefined;
  const [part] = first.parts;
  if (groups.length === 1 && first.parts.length === 1 && part !== undefined) {
    // "It is 300 K outside, what is that in celsius?": the unit asked for comes after the measurement.
    const target = findNamedUnit(lower.slice(first.end), first.dimension, askedUnit);
    return target === undefined || target === part.unit
      ? undefined
      : { kind: "convert", value: part.value, from: part.unit, to: target };
  }
  if (combination === "difference" && groups.length === 2)
    return { kind: "measures", groups: measures, combination, to };
  if (combination === "sum" && groups.length >= 2) return { kind: "measures", groups: measures, combination, to };
  if (groups.length === 1 && first.parts.length > 1 && findNamedUnit(lower, first.dimension, askedUnit))
    return { kind: "measures", groups: measures, combination: "sum", to };
  const last = groups.at(-1);
  if (
    last !== undefined &&
    groups.length >= 2 &&
    combination === undefined &&
    groups.every((group) => group.parts.length === 1)
  ) {
    // "3 km and 5 miles in feet": each converted, when the one unit asked for follows the last measurement.
    const target = findNamedUnit(lower.slice(last.end), first.dimension, askedUnit);
    if (target === undefined || findNamedUnit(lower.slice(0, last.end), first.dimension, askedUnit)) return undefined;
    return {
      kind: "several",
      parts: measures.map(([part]) => ({
        kind: "convert",
        value: part?.value ?? 0,
        from: part?.unit ?? "",
        to: target,
      })),
      notDone: [],
    };
  }
  return undefined;
}
