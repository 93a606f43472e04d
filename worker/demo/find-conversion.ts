/**
 * A unit conversion written in a request.
 *
 * @module
 */
import { chineseUnitNames } from "./chinese-names.ts";
import { findUnit, unitNames } from "./find-unit.ts";
import { readNumbers } from "./read-numbers.ts";

/** A conversion: a value and two unit symbols of the same dimension. */
export interface DemoConversion {
  value: number;
  from: string;
  to: string;
}

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
 * Checks that two unit names are known and share a dimension.
 *
 * @param value - the value.
 * @param from - the name of the value's unit.
 * @param to - the name of the unit wanted.
 * @returns the conversion, or `undefined`.
 */
function toConversion(value: number, from: string, to: string): DemoConversion | undefined {
  const source = findUnit(chineseUnitNames.get(from) ?? from);
  const target = findUnit(chineseUnitNames.get(to) ?? to);
  if (source === undefined || target === undefined || source.dimension !== target.dimension || !Number.isFinite(value))
    return undefined;
  return { value, from: source.symbol, to: target.symbol };
}

/**
 * Reads a conversion of a number written in a request: "10 km to miles",
 * "what is 100 °F in celsius", "how many seconds are in 3.5 days", "how
 * many hours in a week", "3.5 cups of flour in ml", "2,500 feet into
 * metres", "3.5天是多少秒", "10公里等于多少英里".
 *
 * @param query - the request.
 * @returns the conversion, or `undefined` when the request writes none.
 *
 * @example
 * ```ts
 * findConversion("How many seconds are in 3.5 days?"); // { value: 3.5, from: "d", to: "s" }
 * ```
 */
export function findConversion(query: string): DemoConversion | undefined {
  const lower = readNumbers(query).toLowerCase();
  const names = unitNames().map(escapeRegExp).join("|");
  const unitEnd = "(?![\\p{L}\\d²³])";
  const number = "(-?\\d+(?:\\.\\d+)?|an?|one)";
  const read = (text: string): number => (text === "a" || text === "an" || text === "one" ? 1 : Number(text));
  const direct = new RegExp(
    `(-?\\d+(?:\\.\\d+)?)\\s*(${names})${unitEnd}(?:\\s+of\\s+[\\p{L}\\s]{1,30}?)?\\s+(?:to|in|into|as)\\s+(${names})${unitEnd}`,
    "u",
  ).exec(lower);
  if (direct !== null) return toConversion(Number(direct[1]), direct[2] ?? "", direct[3] ?? "");
  const howMany = new RegExp(
    `how many\\s+(${names})${unitEnd}\\s+(?:are there\\s+|are\\s+|is\\s+|make\\s+|does it take\\s+)?(?:in|is|make up|for)?\\s*${number}\\s*(${names})${unitEnd}`,
    "u",
  ).exec(lower);
  if (howMany !== null) return toConversion(read(howMany[2] ?? ""), howMany[3] ?? "", howMany[1] ?? "");
  const chineseNames = [...chineseUnitNames.keys()].map(escapeRegExp).join("|");
  const chinese = new RegExp(
    `(-?\\d+(?:\\.\\d+)?)\\s*(${chineseNames}|${names})\\s*(?:是|等于|合|换算成|换算为|折合)\\s*多少\\s*(${chineseNames}|${names})`,
    "u",
  ).exec(lower);
  if (chinese !== null) return toConversion(Number(chinese[1]), chinese[2] ?? "", chinese[3] ?? "");
  return undefined;
}
