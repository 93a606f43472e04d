/**
 * The JSON Schema of a knowledge base fact, as the demo tools return it.
 *
 * @module
 */
import type { JsonSchema } from "../../src/tools.ts";

/**
 * The JSON Schema of one fact in tool results (see `KnowledgeFact`); the
 * planner checks references such as `{{s1.value}}` against it.
 *
 * @example
 * ```ts
 * const outputSchema = knowledgeFactJsonSchema;
 * ```
 */
export const knowledgeFactJsonSchema: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    subject: { type: "string" },
    attribute: { type: "string" },
    value: { type: ["number", "string"] },
    unit: { type: "string" },
    year: { type: "integer" },
    text: { type: "string" },
    source: { type: "string" },
  },
  required: ["id", "subject", "attribute", "value", "unit", "text", "source"],
};
