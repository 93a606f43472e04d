/**
 * Reciprocal-rank fusion of several rankings.
 *
 * @module
 */
import type { ToolScore } from "./tool-search-index.ts";

/** Options of {@link fuseRankings}. */
export interface FuseRankingsOptions {
  /**
   * The RRF damping constant: larger values flatten the gap between ranks.
   *
   * @defaultValue `60`
   */
  constant?: number;
  /** A weight per ranking (default 1 each). */
  weights?: readonly number[];
}

/**
 * Fuses rankings by reciprocal rank: each item scores
 * `Σ weight / (constant + rank)` over the rankings it appears in (rank from
 * 1; repeated names count once, at their best rank). Only ranks matter, so
 * rankings with incomparable scores (BM25, cosine) combine fairly.
 *
 * @param rankings - lists of names, best first (scores are ignored).
 * @param options - the damping constant and per-ranking weights.
 * @returns the fused ranking, best first; ties in order of first appearance.
 *
 * @example
 * ```ts
 * fuseRankings([[{ name: "a", score: 9 }, { name: "b", score: 1 }], [{ name: "b", score: 0.9 }]]);
 * // [{ name: "b", score: 0.0325… }, { name: "a", score: 0.0163… }]
 * ```
 */
export function fuseRankings(
  rankings: readonly (readonly ToolScore[])[],
  options: FuseRankingsOptions = {},
): ToolScore[] {
  const constant = options.constant ?? 60;
  const fused = new Map<string, { score: number; first: number }>();
  let order = 0;
  rankings.forEach((ranking, which) => {
    const weight = options.weights?.[which] ?? 1;
    const seen = new Set<string>();
    ranking.forEach((item, rank) => {
      if (seen.has(item.name)) return;
      seen.add(item.name);
      const entry = fused.get(item.name) ?? { score: 0, first: order++ };
      entry.score += weight / (constant + rank + 1);
      fused.set(item.name, entry);
    });
  });
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.first - b.first)
    .map(([name, { score }]) => ({ name, score }));
}
