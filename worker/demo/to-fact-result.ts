/**
 * A fact as the demo tools return it.
 *
 * @module
 */
import type { KnowledgeFact } from "./knowledge-fact.ts";

/** A fact as plain JSON: the {@link KnowledgeFact} fields without the aliases. */
export type FactResult = Omit<KnowledgeFact, "aliases">;

/**
 * Copies a fact into a tool result (a fresh object, so callers cannot change the knowledge base).
 *
 * @param fact - the fact.
 * @returns its result shape.
 *
 * @example
 * ```ts
 * toFactResult(knowledgeFacts[0]).subject; // "Tokyo"
 * ```
 */
export function toFactResult(fact: KnowledgeFact): FactResult {
  const result: FactResult = {
    id: fact.id,
    subject: fact.subject,
    attribute: fact.attribute,
    value: fact.value,
    unit: fact.unit,
    text: fact.text,
    source: fact.source,
  };
  if (fact.year !== undefined) result.year = fact.year;
  return result;
}
