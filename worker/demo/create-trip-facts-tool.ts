/**
 * The guided demo's destination research.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { guideToolInputSchema } from "./guide-tool-input-schema.ts";
import { searchKnowledge } from "./search-knowledge.ts";

/** One fact about the destination, with its source. */
export interface TripFact {
  text: string;
  source: string;
}

/**
 * Creates the `look_up_facts` tool of the trip guide: up to four facts of the
 * knowledge base about the destination (its population, time zone,
 * landmarks), each with its source, as `{ facts }`. When the knowledge base
 * knows nothing about it, the one fact says so, so the research phase still
 * completes. Read-only.
 *
 * @returns the tool definition.
 * @example
 * ```ts
 * await registry.call("look_up_facts", { message: "", inputs: { destination: "Tokyo" } });
 * // { facts: [{ text: "Tokyo (the Tokyo Metropolis) has about 14,040,000 inhabitants (2023).", source: "…" }, …] }
 * ```
 */
export function createTripFactsTool(): ToolDefinition {
  return {
    name: "look_up_facts",
    description:
      "Look up facts about the destination in the knowledge base: population, time zone, landmarks, with sources",
    inputSchema: guideToolInputSchema({ destination: { type: "string", minLength: 1 } }),
    outputSchema: {
      type: "object",
      properties: {
        facts: {
          type: "array",
          minItems: 1,
          items: {
            type: "object",
            properties: { text: { type: "string" }, source: { type: "string" } },
            required: ["text", "source"],
          },
        },
      },
      required: ["facts"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    execute: ({ inputs }) => {
      const destination = String((inputs as { destination: string }).destination);
      const facts: TripFact[] = searchKnowledge(destination, { limit: 20 })
        .filter((match) => match.subjectMatched)
        .slice(0, 4)
        .map(({ fact }) => ({ text: fact.text, source: fact.source }));
      if (facts.length === 0)
        facts.push({
          text: `The knowledge base has no facts about ${destination}.`,
          source: "plankit demo knowledge base",
        });
      return { facts };
    },
  };
}
