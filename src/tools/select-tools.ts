/**
 * Choosing the tools a planner gets to see.
 *
 * @module
 */

import { PlankitError } from "../errors/plankit-error.ts";
import { isPromiseLike } from "../shared/is-promise-like.ts";
import { type CatalogSource, compileCatalog } from "./compile-catalog.ts";
import { findIdentifierProviders } from "./find-identifier-providers.ts";
import { fuseRankings } from "./fuse-rankings.ts";
import type { ToolDescriptor } from "./tool-descriptor.ts";
import { type ToolScore, type ToolSearchOptions, toolSearchIndex } from "./tool-search-index.ts";

/** The number of tools to select: an integer >= 0, 6 by default. */
function checkK(k: number | undefined): number {
  if (k === undefined) return 6;
  if (!(Number.isInteger(k) && k >= 0))
    throw new PlankitError("invalid-options", `Option k must be an integer >= 0, got ${String(k)}`);
  return k;
}

/** A ranking source besides the lexical one, such as an embedding search: names best first. */
export type ToolRetriever = (query: string, tools: readonly ToolDescriptor[]) => readonly ToolScore[];

/** An asynchronous {@link ToolRetriever} (embedding models are usually remote). */
export type AsyncToolRetriever = (query: string, tools: readonly ToolDescriptor[]) => PromiseLike<readonly ToolScore[]>;

/** Options of {@link selectTools}. */
export interface SelectToolsOptions extends ToolSearchOptions {
  /**
   * The most tools to return.
   *
   * @defaultValue `6`
   */
  k?: number;
  /**
   * A tool co-usage graph, `{ tool: [tools it works with] }` (edges as
   * given, not symmetrized). Partners of strong hits take the slots no tool
   * matched, and replace weak hits when the request matches them too (ranked
   * within the first `2k`), best ranked first.
   */
  graph?: Readonly<Record<string, readonly string[]>>;
  /**
   * A hit is strong, and brings its partners in, when its score is at least
   * this share of the best score.
   *
   * @defaultValue `0.5`
   */
  strongHitRatio?: number;
  /**
   * Whether a strong hit brings along the tool that returns an identifier it
   * requires (see `findIdentifierProviders`): `hotel_search` taking a
   * `geoId` brings the location search whose output has one.
   *
   * @defaultValue `true`
   */
  identifierProviders?: boolean;
  /** How deep the fused rankings are taken. @defaultValue `max(50, 4k)` */
  depth?: number;
}

/**
 * The best `k` of a ranking, each strong hit followed by the tool that
 * provides an identifier it requires (the best ranked of them, when several
 * do), unless that tool is among the `k` already.
 *
 * @param ranking - the ranking, best first.
 * @param k - how many to keep.
 * @param providers - see `findIdentifierProviders`.
 * @param ratio - a hit is strong at this share of the best score.
 * @returns at most `k` scores; a provider has the score of the tool it serves.
 */
function withIdentifierProviders(
  ranking: readonly ToolScore[],
  k: number,
  providers: ReadonlyMap<string, readonly (readonly string[])[]>,
  ratio: number,
): ToolScore[] {
  const top = ranking.slice(0, k);
  const best = top[0]?.score ?? 0;
  // Unranked (-1) becomes the largest unsigned number, so it places last.
  const place = (name: string): number => ranking.findIndex((item) => item.name === name) >>> 0;
  const chosen: ToolScore[] = [];
  for (const item of top) {
    chosen.push(item);
    if (item.score < best * ratio) continue;
    for (const group of providers.get(item.name) ?? []) {
      // Never one already chosen or among the top: each tool appears once.
      if (group.some((name) => [...top, ...chosen].some((other) => other.name === name))) continue;
      chosen.push({
        name: group.reduce((source, name) => (place(name) < place(source) ? name : source)),
        score: item.score,
      });
    }
  }
  return chosen.slice(0, k);
}

/**
 * Turns the ranking into the final selection: top `k`, then collaborative expansion.
 *
 * @param ranking - the (fused) ranking.
 * @param tools - the catalog descriptors.
 * @param byName - descriptor by name.
 * @param options - `k`, `graph`, `strongHitRatio`.
 * @returns the selected descriptors.
 */
function finish(
  ranking: readonly ToolScore[],
  tools: readonly ToolDescriptor[],
  byName: (name: string) => ToolDescriptor | undefined,
  providers: ReadonlyMap<string, readonly (readonly string[])[]>,
  options: SelectToolsOptions,
): ToolDescriptor[] {
  const k = checkK(options.k);
  const known = ranking.filter((item) => byName(item.name) !== undefined);
  if (tools.length <= k) {
    // The whole catalog fits: give all of it, best first.
    const ranked = new Set(known.map((item) => item.name));
    return [
      ...known.map((item) => byName(item.name) as ToolDescriptor),
      ...tools.filter((tool) => !ranked.has(tool.name)),
    ];
  }
  const top = withIdentifierProviders(known, k, providers, options.strongHitRatio ?? 0.5);
  const graph = options.graph;
  if (graph !== undefined && top.length > 0) {
    const best = top[0]?.score ?? 0;
    const ratio = options.strongHitRatio ?? 0.5;
    const strong = top.filter((item) => item.score >= best * ratio);
    const chosen = new Set(top.map((item) => item.name));
    const partners: string[] = [];
    for (const hit of strong) {
      for (const partner of graph[hit.name] ?? []) {
        if (!chosen.has(partner) && byName(partner) !== undefined && !partners.includes(partner))
          partners.push(partner);
      }
    }
    const free = k - top.length;
    const replaceable = top.length - strong.length;
    // A partner the request also matches, if only below the cut, may replace
    // a weak hit; one it does not match only fills a slot nothing matched.
    // Rank, not graph order, decides among the first: a graph learned from
    // past runs links much that a given request does not need.
    const rank = new Map(known.map((item, at) => [item.name, at]));
    const near = (name: string): boolean => (rank.get(name) ?? Number.POSITIVE_INFINITY) < 2 * k;
    const taken = partners
      .filter(near)
      .sort((a, c) => (rank.get(a) ?? 0) - (rank.get(c) ?? 0))
      .slice(0, free + replaceable);
    taken.push(...partners.filter((name) => !near(name)).slice(0, free - Math.max(0, taken.length - replaceable)));
    const kept = top.slice(0, Math.min(top.length, k - taken.length));
    return [...kept.map((item) => item.name), ...taken].map((name) => byName(name) as ToolDescriptor);
  }
  return top.map((item) => byName(item.name) as ToolDescriptor);
}

/**
 * Selects the tools a planner should see for a request: keyword top-K
 * grown into collaborative retrieval, where tools often used together are
 * offered together:
 *
 * 1. lexical BM25 ranking (see `rankTools`), English and Chinese;
 * 2. with a `retriever` (for example embeddings with cosine top-K), its
 *    ranking fused with the lexical one by reciprocal-rank fusion;
 * 3. the best `k`;
 * 4. a strong hit that requires an identifier (`geoId`) brings along the
 *    tool whose output has it (see `identifierProviders`);
 * 5. with a co-usage `graph`, the partners of strong hits (say `hotel_search`
 *    and `weather` for a `flight_search` hit) take the slots nothing matched,
 *    and replace weak hits when the request matches them too.
 *
 * Tools without any match are not returned, unless the whole catalog has at
 * most `k` tools (then all are, best first). The order is deterministic:
 * ties go to catalog order. The index is built once per catalog object.
 * Returns a promise only when the retriever does.
 *
 * @param query - the request text.
 * @param tools - the catalog in any accepted shape.
 * @param options - `k`, `graph`, `retriever`, `strongHitRatio`, `synonyms`.
 * @returns at most `k` tools in MCP shape, best first.
 *
 * @example
 * ```ts
 * selectTools("book a flight to Tokyo", tools, { k: 3, graph: { flight_search: ["hotel_search", "get_weather"] } });
 * // [flight_search, hotel_search, get_weather]
 * ```
 */
export function selectTools(
  query: string,
  tools: CatalogSource,
  options?: SelectToolsOptions & { retriever?: ToolRetriever },
): ToolDescriptor[];
export function selectTools(
  query: string,
  tools: CatalogSource,
  options: SelectToolsOptions & { retriever: AsyncToolRetriever },
): Promise<ToolDescriptor[]>;
export function selectTools(
  query: string,
  tools: CatalogSource,
  options: SelectToolsOptions & { retriever?: ToolRetriever | AsyncToolRetriever } = {},
): ToolDescriptor[] | Promise<ToolDescriptor[]> {
  const catalog = compileCatalog(tools);
  const k = checkK(options.k);
  const depth = options.depth ?? Math.max(50, 4 * k);
  const byName = (name: string): ToolDescriptor | undefined => catalog.get(name);
  const retriever = options.retriever;
  const providers: ReadonlyMap<string, readonly (readonly string[])[]> =
    options.identifierProviders === false ? new Map() : findIdentifierProviders(catalog);
  // Providers and partners are picked by their rank below the cut, so they need the deeper ranking.
  const shallow = retriever === undefined && providers.size === 0 && options.graph === undefined;
  const lexical = toolSearchIndex(catalog).search(query, options, shallow ? k : depth);
  if (retriever === undefined) return finish(lexical, catalog.tools, byName, providers, options);
  const retrieved = retriever(query, catalog.tools);
  const combine = (list: readonly ToolScore[]): ToolDescriptor[] =>
    finish(fuseRankings([lexical, list.slice(0, depth)]), catalog.tools, byName, providers, options);
  if (isPromiseLike<readonly ToolScore[]>(retrieved)) return Promise.resolve(retrieved).then(combine);
  return combine(retrieved as readonly ToolScore[]);
}
