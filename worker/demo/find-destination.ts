/**
 * The trip destination a message names.
 *
 * @module
 */
import { findSubjects } from "./find-subjects.ts";
import { knowledgeFacts } from "./knowledge-facts.ts";

/** Places of the knowledge base: subjects with a population or a time zone (cities and countries). */
const places = knowledgeFacts.filter((fact) => fact.attribute === "population" || fact.attribute === "time zone");

/** "to Lisbon", "visit Porto", "in New Zealand": a capitalised name after a travel word. */
const afterTravelWord = /\b(?:to|in|visit|visiting|see|towards)\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3})/gu;

/** Capitalised words that follow "to" or "in" without being places: "to May 8", "in March", "on Monday". */
const notPlaces = new Set(
  "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday i".split(
    " ",
  ),
);

/**
 * Finds where a traveller wants to go: the first place of the knowledge base
 * the message names (by name or alias, any case), else a capitalised name
 * after a travel word ("to Lisbon", "visit Porto") that is not a month or a
 * weekday ("to May 8").
 *
 * @param message - the traveller's message.
 * @returns the destination as the knowledge base spells it (or as written), or `undefined`.
 * @example
 * ```ts
 * findDestination("I'd like to see tokyo in May"); // "Tokyo"
 * findDestination("Flying to Lisbon next week");  // "Lisbon"
 * ```
 */
export function findDestination(message: string): string | undefined {
  const known = findSubjects(message, places)[0];
  if (known !== undefined) return known.subject;
  for (const match of message.matchAll(afterTravelWord)) {
    const name = match[1]?.trim() ?? "";
    if (!notPlaces.has(name.split(/\s+/u)[0]?.toLowerCase() ?? "")) return name;
  }
  return undefined;
}
