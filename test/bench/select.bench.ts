/**
 * Tool selection on NESTFUL (read from ../shared/datasets at run time): recall@k and MRR of `selectTools` against plain BM25.
 *
 * The three NESTFUL catalogs (executable RapidAPI tools, Glaive, SGD) are
 * read with `normalizeCatalog` and pooled into one catalog; every request is
 * ranked against the pool, and against its own catalog alone. The gold tools
 * of a request are the distinct names of its call sequence (`var_result`,
 * the final answer, is not a tool). A gold name missing from every catalog
 * (a few Glaive requests call tools their catalog does not list) cannot be
 * found by any selector and is left out of that request's gold set; a
 * request left with none is skipped. A tool listed twice keeps its first
 * entry.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolDescriptor } from "../../src/tools.ts";
import { normalizeCatalog, type SelectToolsOptions, selectTools } from "../../src/tools.ts";
import { formatTable } from "./lib/format-table.ts";
import { createPlainBm25 } from "./lib/plain-bm25.ts";

const datasets = fileURLToPath(new URL("../../../shared/datasets/nestful/", import.meta.url));

const sources = [
  { label: "executable (RapidAPI)", spec: "executable/executable-spec.json", data: "executable/executable-data.json" },
  {
    label: "Glaive",
    spec: "non-executable/non-executable-glaive-spec.json",
    data: "non-executable/non-executable-glaive-data.json",
  },
  {
    label: "SGD",
    spec: "non-executable/non-executable-sgd-spec.json",
    data: "non-executable/non-executable-sgd-data.json",
  },
];

interface Request {
  query: string;
  gold: string[];
  source: string;
}

/** A ranker: the catalog's tool names for a query, best first, at most `k`. */
type Ranker = (query: string, k: number) => string[];

const ks = [3, 6, 10];

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(`${datasets}${path}`, "utf8"));
}

/** The tools of a data-set catalog, the first entry of a repeated name kept. */
function readCatalog(path: string): { tools: ToolDescriptor[]; repeated: number } {
  const seen = new Set<string>();
  const raw = (readJson(path) as { name: string }[]).filter(
    (tool) => !seen.has(tool.name) && seen.add(tool.name) !== undefined,
  );
  return { tools: normalizeCatalog(raw), repeated: (readJson(path) as unknown[]).length - raw.length };
}

function readRequests(
  path: string,
  source: string,
  known: ReadonlySet<string>,
): { requests: Request[]; missing: number } {
  const requests: Request[] = [];
  let missing = 0;
  for (const item of readJson(path) as { input: string; output: { name: string }[] }[]) {
    const names = [...new Set(item.output.map((call) => call.name).filter((name) => name !== "var_result"))];
    missing += names.filter((name) => !known.has(name)).length;
    const gold = names.filter((name) => known.has(name));
    if (gold.length > 0) requests.push({ query: item.input, gold, source });
  }
  return { requests, missing };
}

/** Mean recall@k for each k, and MRR@10 (the reciprocal rank of the first gold tool). */
function measure(requests: readonly Request[], rank: Ranker): { recall: number[]; mrr: number } {
  const recall = ks.map(() => 0);
  let mrr = 0;
  for (const request of requests) {
    ks.forEach((k, at) => {
      const chosen = new Set(rank(request.query, k));
      recall[at] = (recall[at] ?? 0) + request.gold.filter((name) => chosen.has(name)).length / request.gold.length;
    });
    const first = rank(request.query, 10).findIndex((name) => request.gold.includes(name));
    if (first >= 0) mrr += 1 / (first + 1);
  }
  return { recall: recall.map((value) => value / requests.length), mrr: mrr / requests.length };
}

/**
 * A co-usage graph from other requests' call sequences: each tool to the
 * tools called with it in at least two of them, most often first.
 */
function coUsageGraph(requests: readonly Request[]): Record<string, string[]> {
  const counts = new Map<string, Map<string, number>>();
  for (const request of requests) {
    for (const tool of request.gold) {
      const partners = counts.get(tool) ?? new Map<string, number>();
      counts.set(tool, partners);
      for (const other of request.gold) if (other !== tool) partners.set(other, (partners.get(other) ?? 0) + 1);
    }
  }
  return Object.fromEntries(
    [...counts].map(([tool, partners]) => [
      tool,
      [...partners]
        .filter(([, count]) => count >= 2)
        .sort((a, b) => b[1] - a[1])
        .map(([name]) => name),
    ]),
  );
}

/** Measures with a graph learned from every request but the one ranked. */
function measureLeaveOneOut(
  requests: readonly Request[],
  tools: readonly ToolDescriptor[],
  options: SelectToolsOptions = {},
): { recall: number[]; mrr: number } {
  const totals = { recall: ks.map(() => 0), mrr: 0 };
  requests.forEach((request, at) => {
    const graph = coUsageGraph(requests.filter((_, other) => other !== at));
    const { recall, mrr } = measure([request], plankitRanker(tools, { ...options, graph }));
    recall.forEach((value, index) => (totals.recall[index] = (totals.recall[index] ?? 0) + value / requests.length));
    totals.mrr += mrr / requests.length;
  });
  return totals;
}

function plainRanker(tools: readonly ToolDescriptor[], splitCamelCase = false): Ranker {
  const index = createPlainBm25(tools, { splitCamelCase });
  return (query, k) => index.rank(query).slice(0, k);
}

function plankitRanker(tools: readonly ToolDescriptor[], options: SelectToolsOptions = {}): Ranker {
  return (query, k) => selectTools(query, tools, { ...options, k }).map((tool) => tool.name);
}

const percent = (value: number): string => (value * 100).toFixed(1);

/**
 * Runs the benchmark.
 *
 * @returns a markdown section.
 */
export async function run(): Promise<string> {
  if (!existsSync(datasets)) {
    const message = `NESTFUL not found at ${datasets}: tool selection on NESTFUL skipped (the data set is read at run time, never copied into the project).`;
    console.log(message);
    return `## Tool selection on NESTFUL\n\nSkipped: ${message}\n`;
  }
  const catalogs = sources.map((source) => ({ ...source, ...readCatalog(source.spec) }));
  const pooled = catalogs.flatMap((catalog) => catalog.tools);
  const known = new Set(pooled.map((tool) => tool.name));
  const read = catalogs.map((catalog) => ({ catalog, ...readRequests(catalog.data, catalog.label, known) }));
  const requests = read.flatMap((item) => item.requests);
  const missing = read.reduce((sum, item) => sum + item.missing, 0);
  const repeated = catalogs.reduce((sum, catalog) => sum + catalog.repeated, 0);

  const selectors: [string, (tools: readonly ToolDescriptor[]) => Ranker][] = [
    ["plain BM25 (name + description)", (tools) => plainRanker(tools)],
    ["plain BM25, camelCase split too", (tools) => plainRanker(tools, true)],
    ["`selectTools` (default)", (tools) => plankitRanker(tools)],
    ["`selectTools`, no identifier providers", (tools) => plankitRanker(tools, { identifierProviders: false })],
  ];

  const pooledRows = selectors.map(([label, make]) => {
    const { recall, mrr } = measure(requests, make(pooled));
    return [label, ...recall.map(percent), mrr.toFixed(3)];
  });
  const graphMeasure = measureLeaveOneOut(requests, pooled);
  const graphRows = [
    [
      "`selectTools` + co-usage graph (leave-one-out)",
      ...graphMeasure.recall.map(percent),
      graphMeasure.mrr.toFixed(3),
    ],
  ];
  const ownRows = selectors.map(([label, make]) => [
    label,
    ...read.map(({ catalog, requests: own }) => percent(measure(own, make(catalog.tools)).recall[1] ?? 0)),
    ...read.map(({ requests: own }) => percent(measure(own, make(pooled)).recall[1] ?? 0)),
  ]);

  return [
    "## Tool selection on NESTFUL",
    "",
    `${requests.length} requests of NESTFUL (${read.map((item) => `${item.requests.length} ${item.catalog.label}`).join(", ")}), ` +
      `ranked against the ${pooled.length} tools of its three catalogs pooled (${catalogs.map((catalog) => `${catalog.tools.length} ${catalog.label}`).join(", ")}). ` +
      `Gold tools: the distinct tools of each request's call sequence, ${(requests.reduce((sum, request) => sum + request.gold.length, 0) / requests.length).toFixed(2)} per request; ` +
      `${missing} gold names that no catalog lists are left out, ${repeated} repeated catalog entries dropped. ` +
      "Recall@k: share of a request's gold tools among the first k, averaged; MRR over the first 10. " +
      "Plain BM25 (`test/bench/lib/plain-bm25.ts`): name and description as one text, lowercased, split at anything but letters and digits " +
      "(so `snake_case` and `dotted.names` split, `camelCase` does not), Lucene's English stop words, no stemming, no expansion, k1 1.2, b 0.75; " +
      "the second row also splits `camelCase`.",
    "",
    formatTable(["selector", ...ks.map((k) => `recall@${k}`), "MRR"], [...pooledRows, ...graphRows]),
    "",
    "Recall@6 per source, each request ranked against its own catalog, then against the pool:",
    "",
    formatTable(
      [
        "selector",
        ...read.map((item) => `${item.catalog.label}, own`),
        ...read.map((item) => `${item.catalog.label}, pooled`),
      ],
      ownRows,
    ),
    "",
  ].join("\n");
}
