/**
 * Keyword search over the demo knowledge base.
 *
 * @module
 */
import type { KnowledgeFact } from "./knowledge-fact.ts";
import { knowledgeFacts } from "./knowledge-facts.ts";

/** A fact with its search score. */
export interface KnowledgeMatch {
  fact: KnowledgeFact;
  /** Higher is better; subject words weigh most, then attribute words, then other words of the sentence. */
  score: number;
  /** Whether a word of the subject (or an alias) occurs in the query. */
  subjectMatched: boolean;
  /** Whether a word naming the attribute occurs in the query. */
  attributeMatched: boolean;
  /** Whether the subject's whole name (or an alias) occurs in the query, not just one of its words. */
  subjectNamed: boolean;
}

/** Words that name each attribute, besides the attribute's own words. */
const attributeWords: Readonly<Record<string, readonly string[]>> = {
  population: ["population", "people", "inhabitant", "resident", "populous", "live", "big", "large", "populated"],
  area: ["area", "size", "big", "large", "square", "cover"],
  height: ["height", "tall", "high", "elevation", "altitude"],
  "year completed": ["year", "completed", "built", "opened", "finished", "old"],
  "distance from earth": ["distance", "far", "away", "from"],
  distance: ["distance", "far", "long"],
  speed: ["speed", "fast", "quick"],
  circumference: ["circumference", "around"],
  radius: ["radius"],
  "boiling point": ["boil", "boiling", "temperature"],
  length: ["length", "long"],
  "time zone": ["time", "zone", "timezone", "clock", "local", "hour"],
};

const stopwords = new Set(
  "a an the of in on at to for from by with and or is are was what which who how much many does do me tell about please than".split(
    " ",
  ),
);

/**
 * Splits text into search words: lowercased, accents removed, stop words
 * dropped, a plural "s" removed.
 *
 * @param text - any text.
 * @returns the words.
 */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/gu, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/u)
    .filter((word) => word !== "" && !stopwords.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith("ies")
        ? `${word.slice(0, -3)}y`
        : word.length > 3 && word.endsWith("s") && !word.endsWith("ss")
          ? word.slice(0, -1)
          : word,
    );
}

/** Options of {@link searchKnowledge}. */
export interface SearchKnowledgeOptions {
  /**
   * The most matches returned.
   *
   * @defaultValue `5`
   */
  limit?: number;
  /**
   * The facts to search.
   *
   * @defaultValue {@link knowledgeFacts}
   */
  facts?: readonly KnowledgeFact[];
}

/**
 * Ranks the facts for a query. Each query word that occurs in the subject
 * (or an alias) scores 3, one that names the attribute 2, any other word of
 * the fact's sentence or source 0.5; a subject named in full scores 2 more.
 * Facts scoring 0 are left out; ties keep the facts' order.
 *
 * @param query - e.g. `"population of Tokyo"`.
 * @param options - `limit` and the facts to search.
 * @returns the matches, best first.
 *
 * @example
 * ```ts
 * searchKnowledge("How tall is the Eiffel Tower?")[0]?.fact.id; // "eiffel-tower-height"
 * ```
 */
export function searchKnowledge(query: string, options: SearchKnowledgeOptions = {}): KnowledgeMatch[] {
  const limit = options.limit ?? 5;
  const queryWords = words(query);
  const normalizedQuery = ` ${words(query).join(" ")} `;
  const matches: KnowledgeMatch[] = [];
  for (const fact of options.facts ?? knowledgeFacts) {
    const names = [fact.subject, ...fact.aliases];
    const subjectWords = new Set(names.flatMap(words));
    const attributeSet = new Set([...words(fact.attribute), ...(attributeWords[fact.attribute] ?? [])]);
    const otherWords = new Set(words(`${fact.text} ${fact.source}`));
    let score = 0;
    let subjectMatched = false;
    let attributeMatched = false;
    for (const word of new Set(queryWords)) {
      if (subjectWords.has(word)) {
        score += 3;
        subjectMatched = true;
        // "speed" in "speed of light" names the subject and the attribute both.
        if (attributeSet.has(word)) attributeMatched = true;
      } else if (attributeSet.has(word)) {
        score += 2;
        attributeMatched = true;
      } else if (otherWords.has(word)) {
        score += 0.5;
      }
    }
    const subjectNamed = names.some((name) => normalizedQuery.includes(` ${words(name).join(" ")} `));
    if (subjectNamed) score += 2;
    if (score > 0) matches.push({ fact, score, subjectMatched, attributeMatched, subjectNamed });
  }
  return matches
    .map((match, order) => ({ match, order }))
    .sort((a, b) => b.match.score - a.match.score || a.order - b.order)
    .slice(0, Math.max(0, limit))
    .map(({ match }) => match);
}
