/**
 * Lexical ranking of a catalog for a request.
 *
 * @module
 */
import { type CatalogSource, compileCatalog } from "./compile-catalog.ts";
import { type ToolScore, type ToolSearchOptions, toolSearchIndex } from "./tool-search-index.ts";

/**
 * Ranks the tools of a catalog for a request with BM25F over each tool's name
 * (split at `_ . -` and camelCase), title, description, parameter names,
 * descriptions and enum values, and the same of its output schema: names
 * weigh most, what a tool returns least, and each field is normalized by its
 * own length, so long parameter descriptions do not bury a match in a name.
 * Tokenization handles
 * English (stop words, light stemming) and Chinese (character bigrams and
 * unigrams); a bilingual glossary expands the query both ways. The index is
 * built once per catalog object and cached.
 *
 * @param query - the request text, in English, Chinese or both.
 * @param tools - the catalog in any accepted shape.
 * @param options - the glossary (`synonyms`).
 * @returns every tool with a positive score, best first; ties in catalog order.
 *
 * @example
 * ```ts
 * rankTools("what's the weather in Paris", tools);
 * // [{ name: "get_weather", score: 7.1 }, { name: "get_forecast", score: 3.2 }]
 * ```
 */
export function rankTools(query: string, tools: CatalogSource, options: ToolSearchOptions = {}): ToolScore[] {
  return toolSearchIndex(compileCatalog(tools)).search(query, options);
}
