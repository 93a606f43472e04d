/**
 * Subjects a request names that the knowledge base does not have.
 *
 * @module
 */
import { findUnit } from "./find-unit.ts";
import { knowledgeFacts } from "./knowledge-facts.ts";

/**
 * Names in a list beside known subjects that the knowledge base does not
 * have: "the populations of Sydney and Atlantis" names Atlantis. A name is
 * a run of capitalized words after "of", "and", "or", "than", "versus",
 * "between" or a comma, once the knowledge base's own names are blanked
 * out (so "Statue of Liberty" is not read as "Liberty"); a name followed
 * by "of" is an attribute ("the GDP of France"), not a subject.
 *
 * @param query - the request.
 * @returns the names, in order.
 *
 * @example
 * ```ts
 * findUnknownListedSubjects("What are the populations of Sydney and Atlantis?"); // ["Atlantis"]
 * ```
 */
export function findUnknownListedSubjects(query: string): string[] {
  let masked = query;
  const names = [...new Set(knowledgeFacts.flatMap((fact) => [fact.subject, ...fact.aliases]))].sort(
    (a, b) => b.length - a.length,
  );
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");
    masked = masked.replace(new RegExp(`(?<![\\p{L}])${escaped}(?![\\p{L}])`, "giu"), (found) =>
      "#".repeat(found.length),
    );
  }
  const found = masked.matchAll(
    /(?:\b(?:of|and|or|than|versus|vs\.?|between)\s+|,\s*)(?:the\s+)?([A-Z][\p{L}\d'-]*(?:\s+(?:(?:of|de|la|del)\s+)?[A-Z][\p{L}\d'-]*)*)(?![\p{L}\d'-])(?!\s+of\b)/gu,
  );
  return [...found]
    .map((match) => match[1] ?? "")
    .filter((name) => name !== "" && name !== "I" && findUnit(name) === undefined);
}

/**
 * Reads an unknown subject after an attribute: "population of Atlantis",
 * "How tall is Mount Kilimanjaro", "亚特兰蒂斯的人口".
 *
 * @param query - the request.
 * @returns the subject as written, or `undefined`.
 *
 * @example
 * ```ts
 * findUnknownSubject("What is the population of Atlantis?"); // "Atlantis"
 * ```
 */
export function findUnknownSubject(query: string): string | undefined {
  const english = /\b(?:of|is|in|are)\s+(?:the\s+)?((?:[A-Z][\p{L}'-]*)(?:\s+(?:[A-Z][\p{L}'-]*|of|de|la))*)/u.exec(
    query,
  )?.[1];
  if (english !== undefined) return english.replace(/\s+(?:of|de|la)$/u, "");
  return /^(?:请问)?\s*([\p{Script=Han}A-Za-z]{2,12}?)的/u.exec(query)?.[1];
}
