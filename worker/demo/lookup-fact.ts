/**
 * The single best fact for a query.
 *
 * @module
 */
import { PlankitError } from "../../src/index.ts";
import type { KnowledgeFact } from "./knowledge-facts.ts";
import { searchKnowledge } from "./search-knowledge.ts";

/**
 * Finds the one fact a query asks for: the best match whose subject occurs
 * in the query, preferring facts whose attribute the query names.
 *
 * @param query - e.g. `"population of Tokyo"`.
 * @param facts - the facts to search; defaults to the demo knowledge base.
 * @returns the fact.
 * @throws PlankitError `tool-error` when no fact's subject occurs in the query; the message names the closest facts.
 *
 * @example
 * ```ts
 * lookupFact("height of Mount Fuji").value; // 3776
 * ```
 */
export function lookupFact(query: string, facts?: readonly KnowledgeFact[]): KnowledgeFact {
  const matches = searchKnowledge(query, facts === undefined ? { limit: 50 } : { limit: 50, facts });
  const bySubject = matches.filter((match) => match.subjectMatched);
  const best = bySubject.find((match) => match.attributeMatched) ?? bySubject[0];
  if (best === undefined) {
    const near = matches.slice(0, 3).map((match) => `${match.fact.attribute} of ${match.fact.subject}`);
    throw new PlankitError("tool-error", `No fact about "${query}" in the knowledge base${near.length > 0 ? `; closest facts: ${near.join(", ")}` : ""}`);
  }
  return best.fact;
}
