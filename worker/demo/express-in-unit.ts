/**
 * A measurement of a request as a term of a calculation, in a given unit.
 *
 * @module
 */
import type { DemoQuantity } from "./find-quantities.ts";

/** What {@link expressInUnit} gives: the term, and the conversion step it needed, if any. */
export interface UnitTerm {
  /** A number, or a reference to a conversion's value. */
  term: string;
  /** The id of the `convert_units` step, when the measurement was in another unit. */
  step?: string;
}

/**
 * Writes a measurement in a unit for a `calculator` expression: the number
 * itself when it is in that unit already, hours, minutes and seconds as
 * arithmetic (`(3 * 60)` minutes), else a reference to a `convert_units`
 * step that it adds — other conversion factors are the tool's, never the
 * model's.
 *
 * @param quantity - the measurement.
 * @param unit - the unit wanted (a symbol).
 * @param add - adds a step and returns its id.
 * @returns the term, and the step it added.
 *
 * @example
 * ```ts
 * expressInUnit({ value: 5, unit: "km" }, "mi", add); // { term: "{{s1.value}}", step: "s1" }
 * ```
 */
export function expressInUnit(
  quantity: DemoQuantity,
  unit: string,
  add: (step: Record<string, unknown>) => string,
): UnitTerm {
  if (quantity.unit === unit) return { term: String(quantity.value) };
  // Hours, minutes and seconds go by sixties: the calculation shows it, and the plan stays short.
  const seconds: Readonly<Record<string, number>> = { s: 1, min: 60, h: 3600 };
  const [from, to] = [seconds[quantity.unit], seconds[unit]];
  if (from !== undefined && to !== undefined)
    return { term: from > to ? `(${quantity.value} * ${from / to})` : `(${quantity.value} / ${to / from})` };
  const step = add({
    type: "tool",
    name: "convert_units",
    arguments: { value: quantity.value, from: quantity.unit, to: unit },
  });
  return { term: `{{${step}.value}}`, step };
}
