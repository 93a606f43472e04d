/**
 * Unit conversion for the demo: length, mass, temperature, volume, speed,
 * time and area.
 *
 * @module
 */
import { PlankitError } from "../../src/index.ts";
import { findUnit } from "./find-unit.ts";

/** The result of {@link convertUnits}. */
export interface UnitConversion {
  /** The converted value, to 10 significant digits. */
  value: number;
  /** The target unit's symbol. */
  unit: string;
  /** The input value. */
  input: number;
  /** The input unit's symbol. */
  inputUnit: string;
  /** What the units measure, e.g. `"length"`. */
  dimension: string;
  /** The conversion in words, e.g. `"330 m = 1,082.68 ft"`. */
  text: string;
}

/**
 * Formats a number for people: thousands separators, at most `digits` decimals.
 *
 * @param value - the number.
 * @param digits - most decimal digits.
 * @returns the text.
 */
function format(value: number, digits: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/**
 * Converts a value between two units of the same dimension.
 *
 * @param value - the value, a finite number.
 * @param from - the unit it is in (symbol or name, see {@link findUnit}).
 * @param to - the unit to convert to.
 * @returns the converted value with both units and a sentence.
 * @throws PlankitError `invalid-argument` for an unknown unit, units of different dimensions, or a value that is not finite.
 *
 * @example
 * ```ts
 * convertUnits(330, "m", "ft").text; // "330 m = 1,082.68 ft"
 * convertUnits(100, "celsius", "F").value; // 212
 * ```
 */
export function convertUnits(value: number, from: string, to: string): UnitConversion {
  if (!Number.isFinite(value))
    throw new PlankitError("invalid-argument", `The value to convert must be a finite number, got ${String(value)}`);
  const source = findUnit(from);
  if (source === undefined) throw new PlankitError("invalid-argument", `Unknown unit "${from}"`);
  const target = findUnit(to);
  if (target === undefined) throw new PlankitError("invalid-argument", `Unknown unit "${to}"`);
  if (source.dimension !== target.dimension) {
    throw new PlankitError(
      "invalid-argument",
      `Cannot convert ${source.dimension} (${source.symbol}) to ${target.dimension} (${target.symbol})`,
    );
  }
  const base = value * source.factor + (source.offset ?? 0);
  const converted = Number(((base - (target.offset ?? 0)) / target.factor).toPrecision(10));
  const result = Object.is(converted, -0) ? 0 : converted;
  return {
    value: result,
    unit: target.symbol,
    input: value,
    inputUnit: source.symbol,
    dimension: source.dimension,
    text: `${format(value, 6)} ${source.symbol} = ${format(result, Math.abs(result) >= 100 ? 2 : 4)} ${target.symbol}`,
  };
}
