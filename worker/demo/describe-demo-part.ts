/**
 * A part of a request, in words.
 *
 * @module
 */
import type { DemoPart } from "./demo-intent.ts";

/**
 * Writes what a part of a request asks, for a reply that says it was not
 * done: "3 mi to km", "population of Paris", "whether 2028 is a leap year".
 *
 * @param part - the part.
 * @returns the words.
 *
 * @example
 * ```ts
 * describeDemoPart({ kind: "convert", value: 3, from: "mi", to: "km" }); // "3 mi to km"
 * ```
 */
export function describeDemoPart(part: DemoPart): string {
  switch (part.kind) {
    case "arithmetic":
      return part.expr;
    case "convert":
      return `${part.value} ${part.from} to ${part.to}`;
    case "facts":
      return part.lookups.map((lookup) => `${lookup.attribute} of ${lookup.subject}`).join(", ");
    case "time":
      return part.subjects.length === 0 ? "the time" : `the time in ${part.subjects.join(", ")}`;
    case "note":
      return `the note "${part.title}"`;
    case "leap-years":
      return `whether ${part.years.join(", ")} ${part.years.length === 1 ? "is a leap year" : "are leap years"}`;
    case "pace":
      return `the pace per ${part.per}`;
    case "speed":
      return `the average speed in ${part.unit}`;
    case "travel-time":
      return "the travel time";
    case "measures":
      return part.combination === "sum" ? `the total in ${part.to}` : `the difference in ${part.to}`;
  }
}
