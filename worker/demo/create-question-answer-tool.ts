/**
 * The guided demo's side-question answers.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { guideToolInputSchema } from "./guide-tool-input-schema.ts";
import { searchKnowledge } from "./search-knowledge.ts";

/**
 * Creates the `answer_question` tool of the trip guide, the query skill of
 * query mode: the knowledge base fact that best answers the message, with its
 * source, as `{ answer }` (a sentence saying it knows nothing when nothing
 * matches). Read-only.
 *
 * @returns the tool definition.
 * @example
 * ```ts
 * await registry.call("answer_question", { message: "How tall is Mount Fuji?", inputs: {} });
 * // { answer: "Mount Fuji is 3,776 m high. (Source: Geospatial Information Authority of Japan)" }
 * ```
 */
export function createQuestionAnswerTool(): ToolDefinition {
  return {
    name: "answer_question",
    description: "Answer a side question from the knowledge base, with its source",
    inputSchema: guideToolInputSchema(),
    outputSchema: {
      type: "object",
      properties: { answer: { type: "string", minLength: 1 } },
      required: ["answer"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    execute: ({ message }) => {
      const best = searchKnowledge(String(message), { limit: 1 })[0];
      return {
        answer:
          best === undefined
            ? "The knowledge base has nothing on that question."
            : `${best.fact.text} (Source: ${best.fact.source})`,
      };
    },
  };
}
