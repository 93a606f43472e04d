/**
 * The offline demo model's plan for facts of the knowledge base.
 *
 * @module
 */
import type { DemoIntent, DemoLookup } from "./demo-intent.ts";
import { findUnit } from "./find-unit.ts";

/**
 * Writes the possessive of a subject.
 *
 * @param subject - the subject.
 * @returns "Tokyo's", "the Nile's".
 */
function possessive(subject: string): string {
  return `${subject}${subject.endsWith("s") ? "'" : "'s"}`;
}

/**
 * The unit a combination's result is in.
 *
 * @param lookups - the looked-up facts.
 * @returns the unit, or `""` when they differ or are unknown.
 */
function sharedUnit(lookups: readonly DemoLookup[]): string {
  const [first] = lookups;
  return first?.unit !== undefined && lookups.every((lookup) => lookup.unit === first.unit) ? first.unit : "";
}

/**
 * Adds the lookups of a facts request, independent so they run in
 * parallel, then the calculation that combines them (sum, difference,
 * ratio, how many fit, per area, per person) and the conversion to a unit
 * asked for — only for facts measured in that unit's dimension — and
 * writes the reply that quotes them with their sources.
 *
 * @param intent - the facts request.
 * @param add - adds a step and returns its id.
 * @param lookupTool - the lookup tool.
 * @param zh - whether to answer in Chinese.
 * @returns the reply text.
 *
 * @example
 * ```ts
 * planFacts({ kind: "facts", lookups: [{ attribute: "height", subject: "Eiffel Tower", unit: "m" }], targetUnit: "ft" }, add, "kb_lookup", false);
 * // "{{s1.text}} That is {{s2.text}}. Sources: {{s1.source}}."
 * ```
 */
export function planFacts(
  intent: Extract<DemoIntent, { kind: "facts" }>,
  add: (step: Record<string, unknown>) => string,
  lookupTool: string,
  zh: boolean,
): string {
  const ids = intent.lookups.map((lookup) =>
    add({ type: "tool", name: lookupTool, arguments: { query: `${lookup.attribute} of ${lookup.subject}` } }),
  );
  const parts = ids.map((id) => `{{${id}.text}}`);
  const value = (index: number): string => `{{${ids[index] ?? "s1"}.value}}`;
  const [first, second] = intent.lookups;
  const unit = sharedUnit(intent.lookups);
  const comparable = unit !== "" || intent.lookups.some((lookup) => lookup.unit === undefined);
  let result: { id: string; unit: string } | undefined;
  switch (intent.combination) {
    case "sum": {
      if (!comparable) break;
      const id = add({
        type: "tool",
        name: "calculator",
        arguments: { expr: `round(${ids.map((_, index) => value(index)).join(" + ")}, 2)` },
      });
      parts.push(zh ? `合计 {{${id}.value}} ${unit}。` : `Together that makes {{${id}.value}} ${unit}.`);
      result = { id, unit };
      break;
    }
    case "difference": {
      if (!comparable) break;
      const id = add({
        type: "tool",
        name: "calculator",
        arguments: { expr: `round(abs(${value(0)} - ${value(1)}), 2)` },
      });
      parts.push(
        zh
          ? `${first?.subject}和${second?.subject}相差 {{${id}.value}} ${unit}。`
          : `The difference between ${first?.subject} and ${second?.subject} is {{${id}.value}} ${unit}.`,
      );
      result = { id, unit };
      break;
    }
    case "ratio": {
      if (!comparable) break;
      const id = add({ type: "tool", name: "calculator", arguments: { expr: `round(${value(0)} / ${value(1)}, 2)` } });
      parts.push(
        zh
          ? `${first?.subject}是${second?.subject}的 {{${id}.value}} 倍。`
          : `So ${possessive(first?.subject ?? "")} ${first?.attribute} is {{${id}.value}} times that of ${second?.subject}.`,
      );
      break;
    }
    case "fit": {
      if (!comparable) break;
      const id = add({ type: "tool", name: "calculator", arguments: { expr: `round(${value(1)} / ${value(0)}, 2)` } });
      parts.push(
        zh
          ? `${second?.subject}相当于 {{${id}.value}} 个${first?.subject}。`
          : `So about {{${id}.value}} × ${first?.subject} fit in ${possessive(second?.subject ?? "")} ${second?.attribute}.`,
      );
      break;
    }
    case "per-area": {
      const id = add({ type: "tool", name: "calculator", arguments: { expr: `round(${value(0)} / ${value(1)}, 2)` } });
      parts.push(
        zh
          ? `即每 ${second?.unit ?? "km²"} {{${id}.value}} 人。`
          : `That is {{${id}.value}} inhabitants per ${second?.unit ?? "km²"}.`,
      );
      break;
    }
    case "per-capita": {
      const id = add({ type: "tool", name: "calculator", arguments: { expr: `round(${value(1)} / ${value(0)}, 6)` } });
      parts.push(
        zh
          ? `即人均 {{${id}.value}} ${second?.unit ?? ""}。`
          : `That is {{${id}.value}} ${second?.unit ?? ""} per inhabitant.`,
      );
      break;
    }
    case undefined:
      break;
  }
  if (
    intent.combination !== undefined &&
    result === undefined &&
    ["sum", "difference"].includes(intent.combination) &&
    !comparable
  ) {
    parts.push(
      zh
        ? "这些数值单位不同，所以我没有把它们合并计算。"
        : "These figures are in different units, so I did not combine them.",
    );
  }
  if (intent.targetUnit !== undefined) {
    if (result !== undefined && result.unit === intent.targetUnit) {
      // Already in the unit asked for.
    } else if (result !== undefined && result.unit !== "") {
      const id = add({
        type: "tool",
        name: "convert_units",
        arguments: { value: `{{${result.id}.value}}`, from: result.unit, to: intent.targetUnit },
      });
      parts.push(zh ? `换算为 {{${id}.text}}。` : `That is {{${id}.text}}.`);
    } else if (intent.combination === undefined) {
      const target = findUnit(intent.targetUnit);
      for (const [index, id] of ids.entries()) {
        const lookup = intent.lookups[index];
        // A fact of another dimension ("the speed of light" beside "the boiling point in °F") stays as it is.
        if (lookup?.unit === intent.targetUnit) continue;
        if (lookup?.unit !== undefined && findUnit(lookup.unit)?.dimension !== target?.dimension) {
          parts.push(
            zh
              ? `${lookup.subject}的${lookup.attribute}不能换算为 ${intent.targetUnit}。`
              : `The ${lookup.attribute} of ${lookup.subject} is not a measure in ${intent.targetUnit}, so I did not convert it.`,
          );
          continue;
        }
        const converted = add({
          type: "tool",
          name: "convert_units",
          arguments: { value: `{{${id}.value}}`, from: `{{${id}.unit}}`, to: intent.targetUnit },
        });
        parts.push(zh ? `换算为 {{${converted}.text}}。` : `That is {{${converted}.text}}.`);
      }
    }
  }
  parts.push(`${zh ? "来源" : "Sources"}: ${ids.map((id) => `{{${id}.source}}`).join("; ")}.`);
  return parts.join(" ");
}
