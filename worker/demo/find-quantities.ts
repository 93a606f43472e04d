/**
 * Measurements written in a request: a number and its unit.
 *
 * @module
 */
import { findUnit, type Unit, unitNames } from "./find-unit.ts";
import { readNumbers } from "./read-numbers.ts";

/** A value in a unit, by the unit's symbol. */
export interface DemoQuantity {
  value: number;
  unit: string;
}

/**
 * One measurement, maybe written in several units of one dimension:
 * `5'11"` and "1 hour 30 minutes" are each one measurement of two parts.
 */
export interface QuantityGroup {
  parts: DemoQuantity[];
  dimension: Unit["dimension"];
  /** Where it starts and ends in the text with its numbers read ({@link readNumbers}). */
  start: number;
  end: number;
}

/** The units that may follow a unit within one measurement: 5 ft 11 in, 1 h 30 min, 1 m 80 cm — never 5 ft 165 cm. */
const compounds: Readonly<Record<string, readonly string[]>> = {
  mi: ["yd", "ft"],
  yd: ["ft", "in"],
  ft: ["in"],
  km: ["m"],
  m: ["cm", "mm"],
  cm: ["mm"],
  st: ["lb"],
  lb: ["oz"],
  kg: ["g"],
  wk: ["d"],
  d: ["h", "min"],
  h: ["min", "s"],
  min: ["s"],
};

/** Metric units: two of them joined by "and" are two measurements. */
const metric: ReadonlySet<string> = new Set(["km", "m", "cm", "mm", "kg", "g"]);

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
 * Finds the measurements of a request, in order: "5 km", "2,500 feet",
 * "350 °F", `5'11"` (feet and inches), "1 hour 30 minutes", "1:52:30",
 * a runner's "10k". Parts next to each other (or joined by "and") in units
 * that go together — feet then inches, hours then minutes — make one
 * measurement, and so does a bare number after one ("5 foot 6").
 *
 * @param text - the request.
 * @returns the measurements.
 *
 * @example
 * ```ts
 * findQuantities(`I am 5'11" tall`)[0]?.parts; // [{ value: 5, unit: "ft" }, { value: 11, unit: "in" }]
 * ```
 */
export function findQuantities(text: string): QuantityGroup[] {
  const lower = readNumbers(text).toLowerCase();
  const names = unitNames().map(escapeRegExp).join("|");
  const pattern = new RegExp(
    `(?<![\\p{L}\\d.])(-?\\d+(?:\\.\\d+)?)\\s*(?:(?:'|’|′)\\s*(\\d+(?:\\.\\d+)?)\\s*(?:"|”|″|'')?|(${names})(?![\\p{L}\\d²³/]))`,
    "gu",
  );
  const bareNumber = new RegExp(
    `^\\s+(?:and\\s+)?(\\d+(?:\\.\\d+)?)(?!\\d|\\.\\d|\\s*(?:[%'’′"”″:]|(?:${names})(?![\\p{L}\\d²³/])))`,
    "u",
  );
  const targetBefore = new RegExp(`\\bhow (?:many|much)\\s+(?:${names})\\s+(?:is|are|in)\\s+$`, "u");
  const targetAfter = new RegExp(`^\\s+(?:in|to|into)\\s+(?:${names})(?![\\p{L}\\d])`, "u");
  const found: { part: DemoQuantity; unit: Unit; start: number; end: number }[] = [];
  const push = (value: number, symbol: string, start: number, end: number): void => {
    const unit = findUnit(symbol);
    if (unit !== undefined) found.push({ part: { value, unit: unit.symbol }, unit, start, end });
  };
  // Clock-style durations: 1:52:30 is hours, minutes and seconds; 27:30 min and 1:45 h say which two they are.
  const clocks = /(?<![\d.:])(\d+):([0-5]\d)(?::([0-5]\d)|\s*(min(?:ute)?s?|h(?:ours?|rs?)?)\b)/gu;
  const taken: [number, number][] = [];
  for (const match of lower.matchAll(clocks)) {
    const units = match[3] !== undefined ? ["h", "min", "s"] : match[4]?.startsWith("h") ? ["h", "min"] : ["min", "s"];
    const values = [match[1], match[2], match[3]].filter((value) => value !== undefined).map(Number);
    const end = match.index + match[0].length;
    for (const [index, value] of values.entries()) push(value, units[index] ?? "s", match.index, end);
    taken.push([match.index, end]);
  }
  const running = /\b(?:run|ran|running|race|raced|jog|jogged|pace|walk|walked|per (?:mile|km|kilomet\w*))\b/u.test(
    lower,
  );
  for (const match of lower.matchAll(pattern)) {
    const value = Number(match[1]);
    const start = match.index;
    const end = start + match[0].length;
    if (taken.some(([from, to]) => start < to && end > from)) continue;
    if (match[3] === "k" && running && !/\s/u.test(match[0])) {
      // A runner's 10k is ten kilometres, not ten kelvin.
      push(value, "km", start, end);
      continue;
    }
    if (match[3] === undefined) {
      // 5'11" is five feet eleven inches.
      const feet = findUnit("ft");
      const inches = findUnit("in");
      if (feet === undefined || inches === undefined) continue;
      found.push({ part: { value, unit: "ft" }, unit: feet, start, end });
      if (match[2] !== undefined)
        found.push({ part: { value: Number(match[2]), unit: "in" }, unit: inches, start, end });
      continue;
    }
    const unit = findUnit(match[3]);
    if (unit === undefined) continue;
    found.push({ part: { value, unit: unit.symbol }, unit, start, end });
    // "5 foot 6", "1 hour 30": a bare number right after counts in the next smaller unit.
    const smaller = ({ ft: "in", h: "min", lb: "oz", st: "lb", m: "cm" } as Record<string, string>)[unit.symbol];
    const bare = bareNumber.exec(lower.slice(end));
    if (smaller !== undefined && bare !== null) push(Number(bare[1]), smaller, end, end + bare[0].length);
  }
  found.sort((a, b) => a.start - b.start);
  const groups: (QuantityGroup & { last: Unit })[] = [];
  for (const { part, unit, start, end } of found) {
    const previous = groups.at(-1);
    const gap = previous === undefined ? "" : lower.slice(previous.end, start);
    if (
      previous !== undefined &&
      (compounds[previous.last.symbol] ?? []).includes(unit.symbol) &&
      (start < previous.end ||
        /^\s*$/u.test(gap) ||
        // "5 feet and 11 inches", "1 hour and 30 minutes"; "1 km and 1 m" are two measurements,
        // and so are "0.1 miles and 1 foot": a measurement in two units starts with a whole number.
        // "how many m is 2 miles and 1 foot in m" asks twice, so it is two conversions.
        (/^\s*(?:,\s*)?and\s+$/u.test(gap) &&
          !metric.has(unit.symbol) &&
          Number.isInteger(previous.parts.at(-1)?.value) &&
          !(targetBefore.test(lower.slice(0, previous.start)) && targetAfter.test(lower.slice(end)))))
    ) {
      previous.parts.push(part);
      previous.end = end;
      previous.last = unit;
      continue;
    }
    groups.push({ parts: [part], dimension: unit.dimension, start, end, last: unit });
  }
  return groups.map(({ parts, dimension, start, end }) => ({ parts, dimension, start, end }));
}
