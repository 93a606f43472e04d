/**
 * Tool selection: retrieval quality on the 60-tool fixture catalog (English
 * and Chinese requests) against a naive keyword overlap, and query
 * latency on a synthetic catalog of 5,000 tools.
 *
 * @module
 */

import type { ToolDescriptor } from "../../src/tools.ts";
import { compileCatalog, type SelectToolsOptions, selectTools } from "../../src/tools.ts";
import { createRandom } from "../fixtures/create-random.ts";
import {
  catalog,
  chineseCases,
  coUsageGraph,
  englishCases,
  heldOutCases,
  type SelectionCase,
  scenarioCases,
} from "../fixtures/tools/catalog.ts";

/**
 * Naive keyword top-K: split the request on whitespace, score each tool
 * by how many of those keywords occur in its lowercased name and description,
 * keep the top `k` (stable sort, so ties and zero scores keep catalog order —
 * it always passes `k` tools on).
 */
function naiveTopK(query: string, tools: readonly ToolDescriptor[], k: number): string[] {
  const keywords = query
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word !== "");
  return tools
    .map((tool, index) => {
      const text = `${tool.name} ${tool.description}`.toLowerCase();
      return { name: tool.name, index, score: keywords.filter((keyword) => text.includes(keyword)).length };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, k)
    .map((item) => item.name);
}

type Selector = (query: string, k: number) => string[];

function recall(cases: readonly SelectionCase[], select: Selector, k: number): number {
  let total = 0;
  for (const item of cases) {
    const chosen = new Set(select(item.query, k));
    total += item.expected.filter((name) => chosen.has(name)).length / item.expected.length;
  }
  return total / cases.length;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function plankit(options: SelectToolsOptions): Selector {
  return (query, k) => selectTools(query, catalog, { ...options, k }).map((tool) => tool.name);
}

const verbs = [
  "get",
  "list",
  "create",
  "update",
  "delete",
  "search",
  "export",
  "import",
  "sync",
  "analyze",
  "send",
  "archive",
  "approve",
  "schedule",
  "validate",
  "render",
];
const nouns = [
  "invoice",
  "ticket",
  "user",
  "order",
  "shipment",
  "report",
  "document",
  "contract",
  "lead",
  "campaign",
  "dashboard",
  "metric",
  "alert",
  "backup",
  "license",
  "asset",
  "payment",
  "refund",
  "review",
  "survey",
  "webhook",
  "token",
  "cluster",
  "pipeline",
  "dataset",
  "model",
  "article",
  "comment",
  "playlist",
  "booking",
];
const systems = [
  "salesforce",
  "zendesk",
  "jira",
  "stripe",
  "shopify",
  "hubspot",
  "notion",
  "slack",
  "github",
  "gitlab",
  "datadog",
  "pagerduty",
  "airtable",
  "dropbox",
  "figma",
  "asana",
  "okta",
  "twilio",
  "mailchimp",
  "intercom",
];
const words = [
  "customer",
  "account",
  "status",
  "date",
  "range",
  "region",
  "team",
  "project",
  "priority",
  "owner",
  "amount",
  "currency",
  "label",
  "filter",
  "page",
  "limit",
  "query",
  "summary",
  "history",
  "version",
  "permission",
  "workspace",
  "channel",
  "schedule",
  "template",
  "export",
  "audit",
  "usage",
  "quota",
  "billing",
  "天气",
  "订单",
  "客户",
  "发票",
  "报表",
  "审批",
  "日程",
  "文件",
];

/** A synthetic catalog of `size` tools named `<system>_<verb>_<noun>_<n>`. */
function syntheticCatalog(size: number): ToolDescriptor[] {
  const next = createRandom(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return Array.from({ length: size }, (_, index) => {
    const system = pick(systems);
    const verb = pick(verbs);
    const noun = pick(nouns);
    const description = `${verb[0]?.toUpperCase()}${verb.slice(1)} ${noun}s in ${system}. ${Array.from({ length: 8 }, () => pick(words)).join(" ")}.`;
    const properties = Object.fromEntries(
      Array.from({ length: 3 }, () => [pick(words), { type: "string", description: `${pick(words)} ${pick(words)}` }]),
    );
    return { name: `${system}_${verb}_${noun}_${index}`, description, inputSchema: { type: "object", properties } };
  });
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * Runs the benchmark.
 *
 * @returns a markdown section with the tables.
 */
export async function run(): Promise<string> {
  const all = [...englishCases, ...chineseCases];
  const selectors: [string, Selector][] = [
    ["naive keyword overlap (baseline)", (query, k) => naiveTopK(query, catalog, k)],
    ["`selectTools`, BM25, no glossary", plankit({ synonyms: false })],
    ["`selectTools`, BM25 + glossary (default)", plankit({})],
    ["`selectTools`, default + co-usage graph", plankit({ graph: coUsageGraph })],
  ];
  const table = (groups: readonly (readonly SelectionCase[])[]): string[] =>
    selectors.map(([label, select]) => {
      const cells = groups.flatMap((cases) => [1, 3, 6].map((k) => percent(recall(cases, select, k))));
      return `| ${label} | ${cells.join(" | ")} |`;
    });
  const heldOutEnglish = heldOutCases.filter((item) => item.language === "en");
  const heldOutChinese = heldOutCases.filter((item) => item.language === "zh");
  const header = "| selector | en @1 | en @3 | en @6 | zh @1 | zh @3 | zh @6 | all @1 | all @3 | all @6 |";
  const rule = "|---|---|---|---|---|---|---|---|---|---|";

  const big = syntheticCatalog(5000);
  const buildStart = performance.now();
  compileCatalog(big);
  selectTools("warm up", big);
  const buildTime = performance.now() - buildStart;
  const queries = [
    ...all.map((item) => item.query),
    ...heldOutCases.map((item) => item.query),
    ...Array.from(
      { length: 40 },
      (_, index) =>
        `${verbs[index % verbs.length]} ${nouns[index % nouns.length]} ${systems[index % systems.length]} ${words[index % words.length]}`,
    ),
  ];
  const timings: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const query of queries) {
      const start = performance.now();
      selectTools(query, big, { k: 6 });
      timings.push(performance.now() - start);
    }
  }
  timings.sort((a, b) => a - b);
  const small: number[] = [];
  for (const query of queries) {
    const start = performance.now();
    selectTools(query, catalog, { k: 6, graph: coUsageGraph });
    small.push(performance.now() - start);
  }
  small.sort((a, b) => a - b);
  const ms = (value: number): string => `${value.toFixed(3)} ms`;

  return [
    "## Tool selection",
    "",
    `Recall@k (share of the needed tools among the first k) on the ${catalog.length}-tool fixture catalog (\`test/fixtures/tools/catalog.ts\`). The baseline always passes k tools on, zero scores included; \`selectTools\` returns only tools that match. The catalog, the requests and the default Chinese–English glossary were written by the same author.`,
    "",
    `**Held-out requests** (${heldOutEnglish.length} English, ${heldOutChinese.length} Chinese), written after the tokenizer, weights and glossary were settled and never used to tune them:`,
    "",
    header,
    rule,
    ...table([heldOutEnglish, heldOutChinese, heldOutCases]),
    "",
    `**Development requests** (${englishCases.length} English, ${chineseCases.length} Chinese), looked at while tuning tokenization, weights and glossary, so optimistic:`,
    "",
    header,
    rule,
    ...table([englishCases, chineseCases, [...englishCases, ...chineseCases]]),
    "",
    `**Scenario requests** (${scenarioCases.length}) that name one part of a multi-tool task; the co-usage graph encodes the same domain knowledge, so this shows what collaborative expansion adds:`,
    "",
    "| selector | @1 | @3 | @6 |",
    "|---|---|---|---|",
    ...selectors.map(
      ([label, select]) =>
        `| ${label} | ${[1, 3, 6].map((k) => percent(recall(scenarioCases, select, k))).join(" | ")} |`,
    ),
    "",
    `Latency of \`selectTools(query, tools, { k: 6 })\` over ${queries.length} requests × 5 rounds on a synthetic catalog of ${big.length} tools (index built once, ${ms(buildTime)} including schema normalization), and on the fixture catalog with the co-usage graph:`,
    "",
    "| catalog | median | p95 | max |",
    "|---|---|---|---|",
    `| ${big.length} tools | ${ms(quantile(timings, 0.5))} | ${ms(quantile(timings, 0.95))} | ${ms(timings.at(-1) ?? 0)} |`,
    `| ${catalog.length} tools + graph | ${ms(quantile(small, 0.5))} | ${ms(quantile(small, 0.95))} | ${ms(small.at(-1) ?? 0)} |`,
    "",
  ].join("\n");
}
