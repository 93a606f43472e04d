/**
 * The demo knowledge base lookup tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { knowledgeFactJsonSchema } from "./knowledge-fact-json-schema.ts";
import { lookupFact } from "./lookup-fact.ts";
import { toFactResult } from "./to-fact-result.ts";

/**
 * Creates the `kb_lookup` tool: the one fact a query asks for (see
 * {@link lookupFact}), with its numeric `value`, `unit`, sentence and source.
 * Fails when the knowledge base knows nothing about the subject. Read-only
 * and idempotent.
 *
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createKnowledgeLookupTool());
 * await registry.call("kb_lookup", { query: "population of Paris" }); // { value: 2133111, unit: "people", … }
 * ```
 */
export function createKnowledgeLookupTool(): ToolDefinition {
  return {
    name: "kb_lookup",
    title: "Knowledge base lookup",
    description:
      'Look up one fact in the knowledge base, e.g. "population of Tokyo", "height of the Eiffel Tower", "time zone of Paris". Returns value, unit, text and source.',
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: 200,
          description: "The attribute and the subject, e.g. population of Tokyo",
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: knowledgeFactJsonSchema,
    annotations: {
      title: "Knowledge base lookup",
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    },
    execute: ({ query }) => toFactResult(lookupFact(String(query))),
  };
}
