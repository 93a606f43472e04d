/**
 * A plain BM25 over tool names and descriptions, the reference a tool
 * selector is measured against: lowercase, split at every character that is
 * not a letter or a digit (so `snake_case` and `dotted.names` split, but
 * `camelCase` does not), Lucene's English stop words, no stemming, no field
 * weights, no query expansion; k1 = 1.2, b = 0.75.
 *
 * @module
 */

// Lucene's default English stop words (StandardAnalyzer).
const stopWords = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  ),
);

function tokenize(text: string, splitCamelCase: boolean): string[] {
  const spaced = splitCamelCase
    ? text.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    : text;
  return (spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !stopWords.has(word));
}

/** A catalog indexed for plain BM25. */
export interface PlainBm25 {
  /** Every tool name, best first; tools without a match keep catalog order at the end. */
  rank(query: string): string[];
}

/**
 * Indexes tools by `name + " " + description`.
 *
 * @param tools - names and descriptions.
 * @param options - `splitCamelCase`: also split `camelCase` words (a stronger reference).
 * @returns the index.
 * @example
 * ```ts
 * createPlainBm25([{ name: "get_weather", description: "Weather of a city" }]).rank("weather in Paris");
 * ```
 */
export function createPlainBm25(
  tools: readonly { name: string; description: string }[],
  options: { splitCamelCase?: boolean } = {},
): PlainBm25 {
  const split = options.splitCamelCase === true;
  const k1 = 1.2;
  const b = 0.75;
  const documents = tools.map((tool) => {
    const counts = new Map<string, number>();
    const terms = tokenize(`${tool.name} ${tool.description}`, split);
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { counts, length: terms.length };
  });
  const average = documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, documents.length) || 1;
  const frequency = new Map<string, number>();
  for (const document of documents)
    for (const term of document.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const idf = (term: string): number => {
    const n = frequency.get(term) ?? 0;
    return Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
  };
  return {
    rank(query) {
      const terms = tokenize(query, split);
      const scored = documents.map((document, index) => {
        let score = 0;
        for (const term of terms) {
          const f = document.counts.get(term) ?? 0;
          if (f > 0) score += (idf(term) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * document.length) / average));
        }
        return { index, score };
      });
      return scored.sort((x, y) => y.score - x.score || x.index - y.index).map((item) => tools[item.index]?.name ?? "");
    },
  };
}
