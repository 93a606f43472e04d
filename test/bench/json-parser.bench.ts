/**
 * Streaming JSON parser: plankit's `createJsonStreamParser` (lenient and
 * strict) against `JSON.parse` on the whole text and the streaming parsers a
 * TypeScript project would otherwise reach for — jsonparse,
 * @streamparser/json, jsonriver and the AI SDK's `parsePartialJson` — on the
 * same generated plans, fed in the same pre-split chunks.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { JSONParser } from "@streamparser/json";
import { parsePartialJson } from "ai";
import { parse as parseJsonRiver } from "jsonriver";
import { createJsonStreamParser, type JsonStreamParserOptions } from "../../src/index.ts";
import { findJsonDifference } from "./lib/find-json-difference.ts";
import { formatTable } from "./lib/format-table.ts";
import { generatePlanText } from "./lib/generate-plan-text.ts";
import { measureAllocation } from "./lib/measure-allocation.ts";
import { median } from "./lib/median.ts";
import { splitText } from "./lib/split-text.ts";
import { timeRun } from "./lib/time-run.ts";

/** Plan sizes (steps) and chunk sizes (code points) measured. */
const STEP_COUNTS = [10, 100, 1000] as const;
const CHUNK_SIZES = [1, 4, 64] as const;
/** The cell the targets are judged on. */
const TARGET_STEPS = 1000;
const TARGET_CHUNK = 4;

/** Wall-clock budget of the timed rounds of one (N, chunk) cell, all contenders together. */
const CELL_BUDGET_MS = 2500;
const MIN_ROUNDS = 5;
const MAX_ROUNDS = 41;
/** Warm-up per contender and cell: at least this many runs and this much time. */
const WARM_UP_RUNS = 10;
const WARM_UP_MS = 300;
/** `parsePartialJson` re-parses the whole text per chunk; one cell gets at most this long. */
const QUADRATIC_BUDGET_MS = 3000;
const QUADRATIC_MAX_RUNS = 5;

type Kind = "plankit" | "baseline" | "peer";

interface Contender {
  /** Row label in the table. */
  label: string;
  kind: Kind;
  /** Parses the chunks (or, for `JSON.parse`, the text) and returns what it produced, for the check. */
  run(chunks: readonly string[], text: string): unknown;
}

interface JsonparseParser {
  stack: unknown[];
  onValue: (this: JsonparseParser, value: unknown) => void;
  write(chunk: string): void;
}

const require = createRequire(import.meta.url);
const Jsonparse = require("jsonparse") as new () => JsonparseParser;

function packageVersion(name: string): string {
  const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/** Feeds plankit's parser and collects the root elements `write()` returns. */
function runPlankit(options: JsonStreamParserOptions, chunks: readonly string[]): { elements: unknown[]; root: unknown } {
  const parser = createJsonStreamParser(options);
  const elements: unknown[] = [];
  for (const chunk of chunks) {
    for (const element of parser.write(chunk)) elements.push(element);
  }
  return { elements, root: parser.end() };
}

async function* fromChunks(chunks: readonly string[]): AsyncGenerator<string> {
  for (const chunk of chunks) yield chunk;
}

const contenders: Contender[] = [
  {
    label: "plankit `createJsonStreamParser()` (lenient, default)",
    kind: "plankit",
    run: (chunks) => runPlankit({}, chunks).elements,
  },
  {
    label: "plankit `createJsonStreamParser({ strict: true })`",
    kind: "plankit",
    run: (chunks) => runPlankit({ strict: true }, chunks).elements,
  },
  {
    label: "`JSON.parse` (whole text at once; not streaming)",
    kind: "baseline",
    run: (_chunks, text) => JSON.parse(text),
  },
  {
    label: `jsonparse ${packageVersion("jsonparse")}`,
    kind: "peer",
    run: (chunks) => {
      const parser = new Jsonparse();
      const elements: unknown[] = [];
      parser.onValue = function onValue(value) {
        // Depth 1: an element of the root array.
        if (this.stack.length === 1) elements.push(value);
      };
      for (const chunk of chunks) parser.write(chunk);
      return elements;
    },
  },
  {
    label: `@streamparser/json ${packageVersion("@streamparser/json")} (\`paths: ["$.*"]\`)`,
    kind: "peer",
    run: (chunks) => {
      const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
      const elements: unknown[] = [];
      parser.onValue = ({ value }) => {
        elements.push(value);
      };
      for (const chunk of chunks) parser.write(chunk);
      // It ends by itself after the root value; end() would then throw.
      if (!parser.isEnded) parser.end();
      return elements;
    },
  },
  {
    label: `jsonriver ${packageVersion("jsonriver")} (driven to its last value)`,
    kind: "peer",
    run: async (chunks) => {
      let last: unknown;
      for await (const value of parseJsonRiver(fromChunks(chunks))) last = value;
      return last;
    },
  },
];
const QUADRATIC_LABEL = `AI SDK ${packageVersion("ai")} \`parsePartialJson\` on the accumulated text per chunk`;

interface Input {
  steps: number;
  text: string;
  expected: unknown;
}

interface QuadraticResult {
  ms: number;
  extrapolated: boolean;
  /** Calls made in the longest attempt, and calls needed for the whole text. */
  calls: number;
  totalCalls: number;
  /** Characters parsed by the calls made, and by all calls. */
  parsedChars: number;
  totalChars: number;
  runs: number;
}

interface Cell {
  steps: number;
  chunkSize: number;
  chunks: number;
  /** Median milliseconds per contender, in `contenders` order. */
  ms: number[];
  rounds: number;
  /** Bytes allocated by one run per contender, measured on the target chunk size only. */
  allocated: number[] | undefined;
  quadratic: QuadraticResult;
  quadraticAllocated: number | undefined;
}

/** Runs a contender once and fails loudly unless it produced what `JSON.parse` does. */
async function verify(contender: Contender, chunks: readonly string[], input: Input, chunkSize: number): Promise<void> {
  const where = `${contender.label}, N=${input.steps}, ${chunkSize}-char chunks`;
  const difference = findJsonDifference(await contender.run(chunks, input.text), input.expected);
  if (difference !== undefined) throw new Error(`${where}: output differs from JSON.parse ${difference}`);
  if (contender.kind === "plankit") {
    const strict = contender.label.includes("strict");
    const rootDifference = findJsonDifference(runPlankit({ strict }, chunks).root, input.expected);
    if (rootDifference !== undefined) throw new Error(`${where}: end() differs from JSON.parse ${rootDifference}`);
  }
}

async function warmUp(contender: Contender, chunks: readonly string[], text: string): Promise<number> {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < WARM_UP_RUNS || (performance.now() - start < WARM_UP_MS && times.length < 200)) {
    times.push(await timeRun(() => contender.run(chunks, text)));
  }
  return median(times);
}

/**
 * The AI SDK's way: every chunk appends to the text and `parsePartialJson`
 * parses all of it again. Stops at the deadline and extrapolates, taking each
 * call's cost as proportional to the length it parses.
 */
async function runQuadratic(chunks: readonly string[], deadline: number): Promise<{ ms: number; calls: number; parsedChars: number; last: unknown }> {
  let text = "";
  let parsedChars = 0;
  let last: unknown;
  const start = performance.now();
  for (let index = 0; index < chunks.length; index++) {
    if (performance.now() > deadline) return { ms: performance.now() - start, calls: index, parsedChars, last: undefined };
    text += chunks[index];
    parsedChars += text.length;
    last = (await parsePartialJson(text)).value;
  }
  return { ms: performance.now() - start, calls: chunks.length, parsedChars, last };
}

async function measureQuadratic(chunks: readonly string[], input: Input, chunkSize: number): Promise<QuadraticResult> {
  let totalChars = 0;
  let length = 0;
  for (const chunk of chunks) {
    length += chunk.length;
    totalChars += length;
  }
  const begin = performance.now();
  const first = await runQuadratic(chunks, begin + QUADRATIC_BUDGET_MS);
  const base = { calls: first.calls, totalCalls: chunks.length, parsedChars: first.parsedChars, totalChars };
  if (first.calls < chunks.length) {
    // Not finished: check the final parse alone, and extrapolate the time.
    const final = await parsePartialJson(input.text);
    const difference = findJsonDifference(final.value, input.expected);
    if (difference !== undefined) throw new Error(`parsePartialJson, N=${input.steps}: output differs from JSON.parse ${difference}`);
    return { ...base, ms: (first.ms * totalChars) / Math.max(1, first.parsedChars), extrapolated: true, runs: 1 };
  }
  const difference = findJsonDifference(first.last, input.expected);
  if (difference !== undefined) throw new Error(`parsePartialJson, N=${input.steps}, ${chunkSize}-char chunks: output differs from JSON.parse ${difference}`);
  const times = [first.ms];
  while (times.length < QUADRATIC_MAX_RUNS && performance.now() - begin + first.ms < QUADRATIC_BUDGET_MS) {
    times.push((await runQuadratic(chunks, Number.POSITIVE_INFINITY)).ms);
  }
  return { ...base, ms: median(times), extrapolated: false, runs: times.length };
}

async function measureCell(input: Input, chunkSize: number): Promise<Cell> {
  const chunks = splitText(input.text, chunkSize);
  // Each contender is measured in a block of its own after a warm-up:
  // interleaving runs makes every parser pay for the garbage the one before it
  // left (jsonriver leaves hundreds of MB), which measures the neighbour, not
  // the parser. No collection is forced: after a forced full GC, V8 runs the
  // next few hundred milliseconds of work measurably slower (see timeRun).
  const times: number[][] = [];
  let rounds = 0;
  for (const contender of contenders) {
    const estimate = await warmUp(contender, chunks, input.text);
    const count = Math.min(MAX_ROUNDS, Math.max(MIN_ROUNDS, Math.ceil(CELL_BUDGET_MS / contenders.length / Math.max(estimate, 1e-3))));
    rounds = Math.max(rounds, count);
    const own: number[] = [];
    for (let round = 0; round < count; round++) own.push(await timeRun(() => contender.run(chunks, input.text)));
    times.push(own);
  }
  const quadratic = await measureQuadratic(chunks, input, chunkSize);
  let allocated: number[] | undefined;
  let quadraticAllocated: number | undefined;
  if (chunkSize === TARGET_CHUNK) {
    allocated = [];
    for (const contender of contenders) allocated.push(await measureAllocation(() => contender.run(chunks, input.text)));
    if (!quadratic.extrapolated) quadraticAllocated = await measureAllocation(() => runQuadratic(chunks, Number.POSITIVE_INFINITY));
  }
  return { steps: input.steps, chunkSize, chunks: chunks.length, ms: times.map(median), rounds, allocated, quadratic, quadraticAllocated };
}

function formatMs(ms: number): string {
  if (ms >= 100_000) return `${(ms / 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} s`;
  if (ms >= 100) return ms.toLocaleString("en-US", { maximumFractionDigits: 0 });
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

function formatRatio(ratio: number): string {
  if (ratio >= 1000) return `${ratio.toLocaleString("en-US", { maximumFractionDigits: 0 })}×`;
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2)}×`;
}

function formatMegabytes(bytes: number | undefined): string {
  return bytes === undefined ? "—" : (bytes / 1024 / 1024).toFixed(1);
}

/** Fastest peer of a cell (the quadratic one included), with its time and label. */
function fastestPeer(cell: Cell): { ms: number; label: string } {
  let best = { ms: cell.quadratic.ms, label: QUADRATIC_LABEL };
  contenders.forEach((contender, index) => {
    if (contender.kind === "peer" && cell.ms[index]! < best.ms) best = { ms: cell.ms[index]!, label: contender.label };
  });
  return best;
}

function baselineMs(cell: Cell): number {
  return cell.ms[contenders.findIndex((contender) => contender.kind === "baseline")]!;
}

function tableFor(steps: number, cells: readonly Cell[], input: Input): string {
  const row = cells.filter((cell) => cell.steps === steps);
  const header = ["parser", ...row.flatMap((cell) => [`${cell.chunkSize}-char ms`, "÷ peer", "÷ JSON.parse"]), `heap MB (${TARGET_CHUNK}-char)`];
  const target = row.find((cell) => cell.chunkSize === TARGET_CHUNK);
  const cellsOf = (ms: (cell: Cell) => number, mark: (cell: Cell) => string): string[] =>
    row.flatMap((cell) => {
      const value = ms(cell);
      return [`${mark(cell)}${formatMs(value)}${mark(cell) === "" ? "" : " †"}`, formatRatio(value / fastestPeer(cell).ms), formatRatio(value / baselineMs(cell))];
    });
  const rows = contenders.map((contender, index) => [
    contender.label,
    ...cellsOf((cell) => cell.ms[index]!, () => ""),
    formatMegabytes(target?.allocated?.[index]),
  ]);
  rows.push([
    QUADRATIC_LABEL,
    ...cellsOf((cell) => cell.quadratic.ms, (cell) => (cell.quadratic.extrapolated ? "≈ " : "")),
    formatMegabytes(target?.quadraticAllocated),
  ]);
  const chunkCounts = row.map((cell) => `${cell.chunks.toLocaleString("en-US")} chunks of ${cell.chunkSize}`).join(", ");
  const bytes = new TextEncoder().encode(input.text).length;
  return [
    `### N = ${steps} steps (${input.text.length.toLocaleString("en-US")} UTF-16 code units, ${bytes.toLocaleString("en-US")} UTF-8 bytes; ${chunkCounts})`,
    "",
    formatTable(header, rows),
  ].join("\n");
}

function quadraticNotes(cells: readonly Cell[]): string[] {
  return cells.map((cell) => {
    const q = cell.quadratic;
    const where = `N=${cell.steps}, ${cell.chunkSize}-char chunks`;
    if (!q.extrapolated) return `- ${where}: measured, all ${q.totalCalls.toLocaleString("en-US")} calls, median of ${q.runs} run${q.runs === 1 ? "" : "s"}; final value checked.`;
    return `- ${where}: **extrapolated** — ${q.calls.toLocaleString("en-US")} of ${q.totalCalls.toLocaleString("en-US")} calls ran in ${QUADRATIC_BUDGET_MS / 1000} s, parsing ${q.parsedChars.toLocaleString("en-US")} of the ${q.totalChars.toLocaleString("en-US")} characters all calls would parse; ≈ ${formatMs(q.ms)}${q.ms >= 100_000 ? "" : " ms"} assumes time proportional to characters parsed (a lower bound if longer texts cost more per character). Its value on the whole text was checked.`;
  });
}

function targets(cells: readonly Cell[], sizes: ReadonlyMap<number, number>): string[] {
  const target = cells.find((cell) => cell.steps === TARGET_STEPS && cell.chunkSize === TARGET_CHUNK);
  const previous = cells.find((cell) => cell.steps === TARGET_STEPS / 10 && cell.chunkSize === TARGET_CHUNK);
  if (target === undefined || previous === undefined) return [];
  const peer = fastestPeer(target);
  const sizeRatio = sizes.get(TARGET_STEPS)! / sizes.get(TARGET_STEPS / 10)!;
  const verdict = (met: boolean): string => (met ? "**met**" : "**not met**");
  const lines: string[] = [];
  contenders.forEach((contender, index) => {
    if (contender.kind !== "plankit") return;
    const ms = target.ms[index]!;
    const speedup = peer.ms / ms;
    const overBaseline = ms / baselineMs(target);
    const growth = ms / previous.ms[index]!;
    lines.push(
      `- ${contender.label}:`,
      `  - ≥ 2× faster than the fastest peer (${peer.label}, ${formatMs(peer.ms)} ms): ${speedup.toFixed(2)}× faster — ${verdict(speedup >= 2)}`,
      `  - ≤ 5× \`JSON.parse\` (${formatMs(baselineMs(target))} ms): ${overBaseline.toFixed(2)}× — ${verdict(overBaseline <= 5)}`,
      `  - linear growth N=${TARGET_STEPS / 10}→${TARGET_STEPS}: time ×${growth.toFixed(2)} for input ×${sizeRatio.toFixed(2)} (met when within 1.3× of the input ratio) — ${verdict(growth <= sizeRatio * 1.3)}`,
    );
  });
  const others = contenders
    .map((contender, index) => (contender.kind === "plankit" ? undefined : `${contender.label.split(" (")[0]} ×${(target.ms[index]! / previous.ms[index]!).toFixed(2)}`))
    .filter((item) => item !== undefined);
  lines.push(`- For comparison, N=${TARGET_STEPS / 10}→${TARGET_STEPS} growth of the others: ${others.join(", ")}.`);
  return lines;
}

/**
 * Runs the benchmark.
 *
 * @returns a markdown section with the tables, the notes on extrapolated
 *   figures and the targets.
 * @throws Error when any parser's output differs from `JSON.parse`'s.
 */
export async function run(): Promise<string> {
  const inputs: Input[] = STEP_COUNTS.map((steps) => {
    const text = generatePlanText(steps, 2024 + steps);
    return { steps, text, expected: JSON.parse(text) };
  });
  // Fail before any timing if a parser gets any input or chunking wrong.
  for (const input of inputs) {
    for (const chunkSize of CHUNK_SIZES) {
      const chunks = splitText(input.text, chunkSize);
      for (const contender of contenders) await verify(contender, chunks, input, chunkSize);
    }
  }
  // One warm-up pass over a mid-sized input, so the first cell does not pay for the JIT.
  const middle = inputs[1]!;
  for (const chunkSize of CHUNK_SIZES) {
    const chunks = splitText(middle.text, chunkSize);
    for (const contender of contenders) await warmUp(contender, chunks, middle.text);
  }
  await runQuadratic(splitText(inputs[0]!.text, 64), Number.POSITIVE_INFINITY);

  const cells: Cell[] = [];
  for (const input of inputs) {
    for (const chunkSize of CHUNK_SIZES) cells.push(await measureCell(input, chunkSize));
  }
  const sizes = new Map(inputs.map((input) => [input.steps, input.text.length]));
  const roundCounts = [...new Set(cells.map((cell) => cell.rounds))].sort((a, b) => a - b);

  return [
    "## Streaming JSON parser",
    "",
    `Generated plans (\`test/bench/lib/generate-plan-text.ts\`, seeded): N steps of about ${Math.round(inputs[2]!.text.length / inputs[2]!.steps)} characters, one per line, with CJK, accented letters, emoji, \`\\n\` \`\\t\` \`\\"\` \`\\u00e9\` and surrogate-pair escapes, nested arguments, numbers, booleans and null. Each text is split before timing into chunks of 1, 4 or 64 code points (an emoji is never cut). A streaming run feeds every chunk and collects the root array's elements as the parser hands them out (jsonriver has no per-element output: it is driven to its final value). Every parser's output was checked to deep-equal \`JSON.parse\`'s (keys in order) on every input and chunk size before timing; plankit's \`end()\` value too.`,
    "",
    `Times are medians in milliseconds of ${roundCounts[0]}–${roundCounts.at(-1)} rounds per contender and cell, each contender timed in a block of its own after a warm-up, with no GC forced (the collections its own runs cause count). "÷ peer" is the time over the fastest peer's in the same cell (jsonparse, @streamparser/json, jsonriver, \`parsePartialJson\`); "÷ JSON.parse" the time over \`JSON.parse\` on the whole text. "heap MB" is JavaScript heap allocated by one run with ${TARGET_CHUNK}-char chunks (growth plus what GCs during the run freed; jsonparse's Buffers are off-heap and not counted). † marks extrapolated figures (notes below the tables).`,
    "",
    ...inputs.flatMap((input) => [tableFor(input.steps, cells, input), ""]),
    `\`parsePartialJson\` (async, re-parses the whole accumulated text on every chunk, as the AI SDK's partial-object streaming does) gets ${QUADRATIC_BUDGET_MS / 1000} s per cell:`,
    "",
    ...quadraticNotes(cells),
    "",
    `### Targets (N = ${TARGET_STEPS}, ${TARGET_CHUNK}-char chunks)`,
    "",
    ...targets(cells, sizes),
    "",
  ].join("\n");
}
