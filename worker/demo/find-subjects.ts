/**
 * Which knowledge base subjects a text names.
 *
 * @module
 */
import type { KnowledgeFact } from "./knowledge-fact.ts";
import { knowledgeFacts } from "./knowledge-facts.ts";

/** A subject named in a text. */
export interface SubjectMention {
  /** The subject as the knowledge base spells it, e.g. `"New York City"`. */
  subject: string;
  /** Where the name starts in the text. */
  index: number;
  /** The subject's facts, in knowledge base order. */
  facts: KnowledgeFact[];
}

/**
 * Folds a text for matching: accents removed, lowercase, and every run of
 * other characters turned into one space, padded with spaces. Positions are
 * not kept; {@link findSubjects} maps them back.
 *
 * @param text - any text.
 * @returns the folded text.
 */
function fold(text: string): string {
  return ` ${text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, " ")
    .trim()} `;
}

/**
 * Finds the knowledge base subjects (by name or alias, ignoring case and
 * accents) a text names, in the order they appear. Longer names win over the
 * names inside them: "Tokyo Skytree" is not also "Tokyo".
 *
 * @param text - e.g. a user's request.
 * @param facts - the facts whose subjects to look for; defaults to the demo knowledge base.
 * @returns the subjects, each once, in order of first appearance.
 *
 * @example
 * ```ts
 * findSubjects("Compare Tokyo and Paris").map((mention) => mention.subject); // ["Tokyo", "Paris"]
 * ```
 */
export function findSubjects(text: string, facts: readonly KnowledgeFact[] = knowledgeFacts): SubjectMention[] {
  const bySubject = new Map<string, KnowledgeFact[]>();
  const names: { name: string; subject: string }[] = [];
  for (const fact of facts) {
    const list = bySubject.get(fact.subject);
    if (list !== undefined) {
      list.push(fact);
      continue;
    }
    bySubject.set(fact.subject, [fact]);
    for (const name of [fact.subject, ...fact.aliases]) {
      const folded = fold(name).trim();
      // Two-letter aliases ("au") are too easy to hit by accident in free text.
      if (folded.length > 2) names.push({ name: folded, subject: fact.subject });
    }
  }
  names.sort((a, b) => b.name.length - a.name.length);
  let folded = fold(text);
  const found = new Map<string, number>();
  for (const { name, subject } of names) {
    for (let at = folded.indexOf(` ${name} `); at !== -1; at = folded.indexOf(` ${name} `)) {
      if (!found.has(subject) || (found.get(subject) ?? Infinity) > at) found.set(subject, at);
      // Blank the match out so shorter names inside it do not match again; keep the length for positions.
      folded = `${folded.slice(0, at + 1)}${"#".repeat(name.length)}${folded.slice(at + 1 + name.length)}`;
    }
  }
  return [...found.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([subject, index]) => ({ subject, index, facts: bySubject.get(subject) ?? [] }));
}
