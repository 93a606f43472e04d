/**
 * The offline demo model's plans for a pace, a speed or a travel time.
 *
 * @module
 */
import type { DemoIntent } from "./demo-intent.ts";
import { expressInUnit } from "./express-in-unit.ts";
import type { DemoQuantity } from "./find-quantities.ts";
import { speedUnitParts } from "./find-unit.ts";

/** A rate request. */
type RateIntent = Extract<DemoIntent, { kind: "pace" | "speed" | "travel-time" }>;

/**
 * Writes a measurement as the request gave it: "1 h 30 min".
 *
 * @param parts - its parts.
 * @returns the text.
 */
function describe(parts: readonly DemoQuantity[]): string {
  return parts
    .filter((part, index) => part.value !== 0 || (index === 0 && parts.length === 1))
    .map((part) =>
      part.unit === "marathon" ? (part.value === 1 ? "a marathon" : "a half marathon") : `${part.value} ${part.unit}`,
    )
    .join(" ");
}

/**
 * Adds the steps of a pace ("5 km in 27 minutes, pace per mile"), an average
 * speed or a travel time and writes the reply: each measurement in the
 * unit the rate needs (`convert_units` when it is in another), then the
 * division on the `calculator` — for a pace also in whole minutes and
 * seconds.
 *
 * @param intent - the rate asked for.
 * @param add - adds a step and returns its id.
 * @param zh - whether to answer in Chinese.
 * @returns the reply text, with references to the steps.
 *
 * @example
 * ```ts
 * planRate({ kind: "speed", distance: { value: 42, unit: "km" }, time: [{ value: 2, unit: "h" }], unit: "km/h" }, add, false);
 * // "42 km in 2 h is an average speed of {{s1.value}} km/h."
 * ```
 */
export function planRate(intent: RateIntent, add: (step: Record<string, unknown>) => string, zh: boolean): string {
  const calculate = (expr: string): string => add({ type: "tool", name: "calculator", arguments: { expr } });
  const converted: string[] = [];
  const facts: string[] = [];
  const inUnit = (quantity: DemoQuantity, unit: string): string => {
    if (quantity.unit === "marathon") {
      // A race: its distance is a fact of the knowledge base, in km.
      const race = add({ type: "tool", name: "kb_lookup", arguments: { query: "distance of Marathon" } });
      facts.push(`{{${race}.text}}`);
      let length = `{{${race}.value}}`;
      if (unit !== "km") {
        const step = add({ type: "tool", name: "convert_units", arguments: { value: length, from: "km", to: unit } });
        converted.push(`{{${step}.text}}`);
        length = `{{${step}.value}}`;
      }
      return quantity.value === 1 ? length : `(${length} * ${quantity.value})`;
    }
    const { term, step } = expressInUnit(quantity, unit, add);
    if (step !== undefined) converted.push(`{{${step}.text}}`);
    return term;
  };
  const sum = (parts: readonly DemoQuantity[], unit: string): string => {
    const terms = parts.map((part) => inUnit(part, unit));
    return terms.length === 1 ? (terms[0] ?? "0") : `(${terms.join(" + ")})`;
  };
  const distanceText = describe([intent.distance]);
  const given = `${distanceText.charAt(0).toUpperCase()}${distanceText.slice(1)} ${zh ? "用时" : "in"} ${
    intent.kind === "travel-time" ? "" : describe(intent.time)
  }`;
  // Facts quote their own sentence; conversions are joined into one.
  const lead = (): string =>
    [...facts, ...(converted.length === 0 ? [] : [`${converted.join("; ")}${zh ? "。" : "."}`]), ""].join(" ");
  switch (intent.kind) {
    case "pace": {
      const distance = inUnit(intent.distance, intent.per);
      const minutes = sum(intent.time, "min");
      const pace = calculate(`round(${minutes} / ${distance}, 2)`);
      const whole = calculate(`floor(round(${minutes} * 60 / ${distance}) / 60)`);
      const seconds = calculate(`round(${minutes} * 60 / ${distance}) % 60`);
      return zh
        ? `${lead()}${given}，配速为每 ${intent.per} {{${pace}.value}} 分钟（{{${whole}.value}} 分 {{${seconds}.value}} 秒）。`
        : `${lead()}${given} is a pace of {{${pace}.value}} min per ${intent.per} ({{${whole}.value}} min {{${seconds}.value}} s per ${intent.per}).`;
    }
    case "speed": {
      const units = speedUnitParts(intent.unit) ?? { distance: "km", time: "h" };
      const distance = inUnit(intent.distance, units.distance);
      const time = sum(intent.time, units.time);
      const speed = calculate(`round(${distance} / ${time}, 2)`);
      return zh
        ? `${lead()}${given}，平均速度为 {{${speed}.value}} ${intent.unit}。`
        : `${lead()}${given} is an average speed of {{${speed}.value}} ${intent.unit}.`;
    }
    case "travel-time": {
      const units = speedUnitParts(intent.speed.unit) ?? { distance: "km", time: "h" };
      const distance = inUnit(intent.distance, units.distance);
      const time = calculate(`round(${distance} / ${intent.speed.value}, 2)`);
      const speed = describe([intent.speed]);
      return zh
        ? `${lead()}以 ${speed} 走 ${describe([intent.distance])} 需要 {{${time}.value}} ${units.time}。`
        : `${lead()}${describe([intent.distance])} at ${speed} takes {{${time}.value}} ${units.time}.`;
    }
  }
}
