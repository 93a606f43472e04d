/**
 * The guided demo's trip summary.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import type { TripFact } from "./create-trip-facts-tool.ts";
import type { TravelDates } from "./find-travel-dates.ts";
import { guideToolInputSchema } from "./guide-tool-input-schema.ts";
import { travelDatesJsonSchema } from "./travel-dates-json-schema.ts";

const dayMs = 86_400_000;

/**
 * The number of nights between two ISO dates.
 *
 * @param dates - the travel dates.
 * @returns the nights, or `undefined` when the dates are not both ISO dates in order.
 */
function countNights(dates: TravelDates): number | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/u;
  const from = iso.exec(dates.from);
  const to = dates.to === undefined ? null : iso.exec(dates.to);
  if (from === null || to === null) return undefined;
  const nights =
    (Date.UTC(Number(to[1]), Number(to[2]) - 1, Number(to[3])) -
      Date.UTC(Number(from[1]), Number(from[2]) - 1, Number(from[3]))) /
    dayMs;
  return Number.isInteger(nights) && nights > 0 ? nights : undefined;
}

/**
 * Writes the summary of a trip.
 *
 * @param destination - where.
 * @param dates - when.
 * @param facts - what the knowledge base says, with sources.
 * @returns the summary text.
 */
function summarize(destination: string, dates: TravelDates, facts: readonly TripFact[]): string {
  const nights = countNights(dates);
  const when = dates.to === undefined ? `from ${dates.from}` : `from ${dates.from} to ${dates.to}`;
  const length = nights === undefined ? "" : ` (${nights} ${nights === 1 ? "night" : "nights"})`;
  const known = facts.map((fact) => `${fact.text.replace(/\.$/u, "")} [${fact.source}]`).join("; ");
  return `Trip to ${destination} ${when}${length}. Good to know: ${known}.`;
}

/**
 * Creates the `summarize_trip` tool of the trip guide: one paragraph with
 * the destination, the dates (and nights, for ISO dates) and the facts with
 * their sources, as `{ summary }`. Read-only.
 *
 * @returns the tool definition.
 * @example
 * ```ts
 * await registry.call("summarize_trip", { message: "", inputs: { destination: "Tokyo", dates: { from: "2026-05-01", to: "2026-05-08" }, facts } });
 * // { summary: "Trip to Tokyo from 2026-05-01 to 2026-05-08 (7 nights). Good to know: …" }
 * ```
 */
export function createTripSummaryTool(): ToolDefinition {
  return {
    name: "summarize_trip",
    description: "Summarize the trip: destination, dates and the facts found, with sources",
    inputSchema: guideToolInputSchema({
      destination: { type: "string", minLength: 1 },
      dates: travelDatesJsonSchema,
      facts: {
        type: "array",
        items: {
          type: "object",
          properties: { text: { type: "string" }, source: { type: "string" } },
          required: ["text", "source"],
        },
      },
    }),
    outputSchema: {
      type: "object",
      properties: { summary: { type: "string", minLength: 1 } },
      required: ["summary"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    execute: ({ inputs }) => {
      const { destination, dates, facts } = inputs as { destination: string; dates: TravelDates; facts: TripFact[] };
      return { summary: summarize(destination, dates, facts) };
    },
  };
}
