/**
 * The guided demo's travel dates reader.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { findTravelDates } from "./find-travel-dates.ts";
import { guideToolInputSchema } from "./guide-tool-input-schema.ts";
import { travelDatesJsonSchema } from "./travel-dates-json-schema.ts";

/**
 * Creates the `read_dates` tool of the trip guide: the travel dates the
 * message gives (see {@link findTravelDates}) as `{ dates: { from, to? } }`,
 * or `{}` when it gives none. Read-only.
 *
 * @returns the tool definition.
 * @example
 * ```ts
 * await registry.call("read_dates", { message: "2026-05-01 to 2026-05-08", inputs: {} });
 * // { dates: { from: "2026-05-01", to: "2026-05-08" } }
 * ```
 */
export function createReadDatesTool(): ToolDefinition {
  return {
    name: "read_dates",
    description: "Read the travel dates (2026-05-01 to 2026-05-08, or May 1 to May 8) from the traveller's message",
    inputSchema: guideToolInputSchema(),
    outputSchema: { type: "object", properties: { dates: travelDatesJsonSchema }, additionalProperties: false },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    execute: ({ message }) => {
      const dates = findTravelDates(String(message));
      return dates === undefined ? {} : { dates };
    },
  };
}
