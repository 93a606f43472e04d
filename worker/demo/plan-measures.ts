/**
 * The offline demo model's plan for measurements added or subtracted.
 *
 * @module
 */
import type { DemoIntent } from "./demo-intent.ts";
import { expressInUnit } from "./express-in-unit.ts";

/**
 * Adds the steps that add or subtract measurements the request gives
 * (`5'11"` and 165 cm, together in meters): each part in the unit asked
 * for (`convert_units` when it is in another), then the sum or the
 * difference on the `calculator`, and writes the reply.
 *
 * @param intent - the measurements.
 * @param add - adds a step and returns its id.
 * @param zh - whether to answer in Chinese.
 * @returns the reply text, with references to the steps.
 *
 * @example
 * ```ts
 * planMeasures({ kind: "measures", groups: [[{ value: 80, unit: "kg" }], [{ value: 176, unit: "lb" }]], combination: "sum", to: "lb" }, add, false);
 * // "{{s1.text}}. Together: {{s2.value}} lb."
 * ```
 */
export function planMeasures(
  intent: Extract<DemoIntent, { kind: "measures" }>,
  add: (step: Record<string, unknown>) => string,
  zh: boolean,
): string {
  const converted: string[] = [];
  const sums = intent.groups.map((written) => {
    // 6'0" is 6 ft: a part of 0 needs no conversion.
    const nonZero = written.filter((part) => part.value !== 0);
    const parts = nonZero.length > 0 ? nonZero : written.slice(0, 1);
    const terms = parts.map((part) => {
      const { term, step } = expressInUnit(part, intent.to, add);
      if (step !== undefined) converted.push(`{{${step}.text}}`);
      return term;
    });
    return terms.length === 1 ? (terms[0] ?? "0") : `(${terms.join(" + ")})`;
  });
  const expr =
    intent.combination === "difference"
      ? `round(abs(${sums[0] ?? "0"} - ${sums[1] ?? "0"}), 4)`
      : `round(${sums.join(" + ")}, 4)`;
  const id = add({ type: "tool", name: "calculator", arguments: { expr } });
  const lead = converted.length === 0 ? "" : `${converted.join("; ")}. `;
  if (intent.combination === "difference")
    return zh ? `${lead}相差 {{${id}.value}} ${intent.to}。` : `${lead}The difference is {{${id}.value}} ${intent.to}.`;
  return zh ? `${lead}合计 {{${id}.value}} ${intent.to}。` : `${lead}Together: {{${id}.value}} ${intent.to}.`;
}
