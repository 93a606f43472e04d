/**
 * The guided demo's destination reader.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { findDestination } from "./find-destination.ts";
import { guideToolInputSchema } from "./guide-tool-input-schema.ts";

/**
 * Creates the `read_destination` tool of the trip guide: the destination the
 * message names (see {@link findDestination}) as `{ destination }`, or `{}`
 * when it names none, which leaves the goal missing. Read-only.
 *
 * @returns the tool definition.
 * @example
 * ```ts
 * await new ToolRegistry().register(createReadDestinationTool()).call("read_destination", { message: "to Tokyo", inputs: {} });
 * // { destination: "Tokyo" }
 * ```
 */
export function createReadDestinationTool(): ToolDefinition {
  return {
    name: "read_destination",
    description: "Read the trip's destination (a city or country) from the traveller's message",
    inputSchema: guideToolInputSchema(),
    outputSchema: {
      type: "object",
      properties: { destination: { type: "string", minLength: 1 } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    execute: ({ message }) => {
      const destination = findDestination(String(message));
      return destination === undefined ? {} : { destination };
    },
  };
}
