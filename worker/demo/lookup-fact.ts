/**
 * The single best fact for a query.
 *
 * @module
 */
import { PlankitError } from "../../src/index.ts";
import type { KnowledgeFact } from "./knowledge-fact.ts";
import { searchKnowledge } from "./search-knowledge.ts";

/**
 * Finds the one fact a query asks for: the best match whose subject's name
 * (or an alias) occurs whole in the query, preferring facts whose attribute the query names. A query
 * of the form "<attribute> of <subject>" gets a fact of that attribute or
 * none: a figure of another attribute would answer a different question.
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
  // The whole name must occur: "Mount Kilimanjaro" shares a word with "Mount Everest" but is not it.
  const bySubject = matches.filter((match) => match.subjectNamed);
  // "GDP of France" names an attribute: another fact of France (its population) is not an answer.
  const namesAttribute = /^\s*\S.*?\s+of\s+\S/iu.test(query);
  const best = bySubject.find((match) => match.attributeMatched) ?? (namesAttribute ? undefined : bySubject[0]);
  if (best === undefined) {
    const near = matches.slice(0, 3).map((match) => `${match.fact.attribute} of ${match.fact.subject}`);
    throw new PlankitError(
      "tool-error",
      `No fact about "${query}" in the knowledge base${near.length > 0 ? `; closest facts: ${near.join(", ")}` : ""}`,
    );
  }
  return best.fact;
}
