/**
 * The demo knowledge base search tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { knowledgeFactJsonSchema } from "./knowledge-fact-json-schema.ts";
import { searchKnowledge } from "./search-knowledge.ts";
import { toFactResult } from "./to-fact-result.ts";

/**
 * Creates the `kb_search` tool: the facts that best match a query, ranked
 * (see {@link searchKnowledge}); an empty list when nothing matches.
 * Read-only and idempotent.
 *
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createKnowledgeSearchTool());
 * await registry.call("kb_search", { query: "tall towers", limit: 3 }); // { query, count: 3, results: [...] }
 * ```
 */
export function createKnowledgeSearchTool(): ToolDefinition {
  return {
    name: "kb_search",
    title: "Knowledge base search",
    description:
      "Search the knowledge base of facts (city populations and time zones, heights of landmarks and mountains, distances, lengths of rivers, physical constants). Returns the best matching facts with their sources.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 200, description: "Words to search for" },
        limit: { type: "integer", minimum: 1, maximum: 10, description: "The most facts to return (default 3)" },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        count: { type: "integer" },
        results: { type: "array", items: knowledgeFactJsonSchema },
      },
      required: ["query", "count", "results"],
    },
    annotations: {
      title: "Knowledge base search",
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    },
    execute: ({ query, limit }) => {
      const results = searchKnowledge(String(query), { limit: typeof limit === "number" ? limit : 3 }).map((match) =>
        toFactResult(match.fact),
      );
      return { query: String(query), count: results.length, results };
    },
  };
}
