/**
 * "Did you mean …?" suggestions for misspelled names.
 *
 * @module
 */

/**
 * The edit distance between two strings (insertions, deletions,
 * substitutions, adjacent transpositions), giving up above `limit`.
 *
 * @param a - one string.
 * @param b - another.
 * @param limit - the largest distance of interest.
 * @returns the distance, or `limit + 1` when larger.
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (previous2[j - 2] ?? 0) + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * Folds case and separators: `ArxivSearch`, `arxiv-search` and
 * `arxiv_search` all become `arxivsearch`.
 *
 * @param name - a name.
 * @returns the folded name.
 */
function fold(name: string): string {
  return name.toLowerCase().replace(/[\s_.\-/:]+/gu, "");
}

/**
 * Finds the candidate closest to a misspelled name: equal up to case and
 * separators, or within a small edit distance (a third of the length, at
 * least 2). Ties go to the earlier candidate.
 *
 * @param name - the unknown name.
 * @param candidates - the known names.
 * @returns the suggestion, or `undefined`.
 *
 * @example
 * ```ts
 * closestName("arxiv_serch", ["calculator", "arxiv_search"]); // "arxiv_search"
 * ```
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const folded = fold(name);
  const limit = Math.max(2, Math.floor(folded.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const value = distance(folded, fold(candidate), Math.min(limit, bestDistance));
    if (value < bestDistance) {
      best = candidate;
      bestDistance = value;
      if (value === 0) break;
    }
  }
  return best;
}
