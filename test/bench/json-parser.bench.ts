/**
 * Streaming JSON parser: plankit's `createJsonStreamParser` (lenient and
 * strict) against `JSON.parse` on the whole text and the streaming parsers a
 * TypeScript project would otherwise reach for — jsonparse,
 * @streamparser/json, jsonriver and the AI SDK's `parsePartialJson` — on the
 * same generated plans, fed in the same pre-split chunks.
 *
 * Every output is checked against `JSON.parse` here first; then every
 * (contender, N, chunk size) cell is timed in fresh Node processes of its own
 * (`lib/json-parser-worker.ts`), one process at a time. Timing them all in
 * one process moved results by 25–80% depending on what ran before: the
 * previous contender's garbage was collected during the next one's runs, and
 * JIT and heap sizing carried over.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { findJsonDifference } from "./lib/find-json-difference.ts";
import { formatTable } from "./lib/format-table.ts";
import { generatePlanText } from "./lib/generate-plan-text.ts";
import type { JsonMemoryResult } from "./lib/json-memory-worker.ts";
import { jsonParserContenders as contenders, type JsonParserContender } from "./lib/json-parser-contenders.ts";
import { median } from "./lib/median.ts";
import { partialJsonContender } from "./lib/partial-json-contender.ts";
import { type JsonParserWorkerResult, runJsonParserWorker } from "./lib/run-json-parser-worker.ts";
import { splitText } from "./lib/split-text.ts";

/** Plan sizes (steps) and chunk sizes (code points) measured. */
const STEP_COUNTS = [10, 100, 1000] as const;
const CHUNK_SIZES = [1, 4, 64] as const;
/** The cell the targets are judged on. */
const TARGET_STEPS = 1000;
const TARGET_CHUNK = 4;

/** Wall-clock budget of the timed runs in one worker process (it does 5–101 runs). */
const RUN_BUDGET_MS = 300;
/**
 * Worker processes per contender and cell, and a third when their medians
 * differ by more than this fraction: a fresh process now and then settles in
 * a slower state for its whole life (@streamparser/json with 1-char chunks
 * at N=1000 ran 240 ms in most processes and 450 ms in some).
 */
const PROCESSES_PER_CELL = 2;
const DISAGREEMENT = 0.1;
/**
 * Rounds of processes in the cell the targets are judged on: its verdicts
 * rest on more samples than the other cells' figures, and on ratios taken
 * within a round (see {@link pairedRatio}).
 */
const TARGET_PROCESSES = 6;
/** `parsePartialJson` re-parses the whole text per chunk; one pass gets at most this long. */
const QUADRATIC_BUDGET_MS = 3000;
const QUADRATIC_LABEL = partialJsonContender.label;

interface Input {
  steps: number;
  seed: number;
  text: string;
  expected: unknown;
}

interface QuadraticResult {
  ms: number;
  extrapolated: boolean;
  /** Calls made in the first pass, and calls needed for the whole text. */
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
  /**
   * Median milliseconds per contender, in `contenders` order: the median of
   * its processes' medians. For `JSON.parse`, whose run ignores the chunks,
   * the median over every process of that N (see {@link poolBaseline}).
   */
  ms: number[];
  /** Each process's median milliseconds, per contender in `contenders` order. */
  processMs: number[][];
  /** Timed runs in each worker process, per contender in `contenders` order. */
  rounds: number[][];
  /** Bytes allocated by one run per contender, measured on the target chunk size only. */
  allocated: (number | undefined)[] | undefined;
  quadratic: QuadraticResult;
  quadraticAllocated: number | undefined;
}

/** Runs a contender once and fails loudly unless it produced what `JSON.parse` does. */
async function verify(
  contender: JsonParserContender,
  chunks: readonly string[],
  input: Input,
  chunkSize: number,
): Promise<void> {
  const where = `${contender.label}, N=${input.steps}, ${chunkSize}-char chunks`;
  const { run, end } = await contender.load();
  const difference = findJsonDifference(await run(chunks, input.text), input.expected);
  if (difference !== undefined) throw new Error(`${where}: output differs from JSON.parse ${difference}`);
  if (end !== undefined) {
    const rootDifference = findJsonDifference(end(chunks), input.expected);
    if (rootDifference !== undefined) throw new Error(`${where}: end() differs from JSON.parse ${rootDifference}`);
  }
}

/** Checks `parsePartialJson`'s last call, the one on the whole text; the worker checks whole passes it finishes. */
async function verifyQuadratic(input: Input): Promise<void> {
  const pass = await partialJsonContender.load();
  const difference = findJsonDifference((await pass([input.text], Number.POSITIVE_INFINITY)).last, input.expected);
  if (difference !== undefined)
    throw new Error(`parsePartialJson, N=${input.steps}: output differs from JSON.parse ${difference}`);
}

/** Runs one worker process and makes sure it timed the same input as the one checked here. */
async function measureInWorker(
  id: string,
  input: Input,
  chunkSize: number,
  chunkCount: number,
  budgetMs: number,
  measureHeap: boolean,
): Promise<JsonParserWorkerResult> {
  const result = await runJsonParserWorker({
    contender: id,
    steps: input.steps,
    seed: input.seed,
    chunkSize,
    budgetMs,
    measureHeap,
  });
  if (result.textLength !== input.text.length || result.chunks !== chunkCount) {
    throw new Error(
      `${id}, N=${input.steps}, ${chunkSize}-char chunks: the worker generated ${result.textLength} characters in ${result.chunks} chunks, expected ${input.text.length} in ${chunkCount}`,
    );
  }
  return result;
}

/** Processes each contender gets in a cell before the check for disagreeing medians. */
function plannedProcesses(steps: number, chunkSize: number): number {
  return steps === TARGET_STEPS && chunkSize === TARGET_CHUNK ? TARGET_PROCESSES : PROCESSES_PER_CELL;
}

async function measureCell(input: Input, chunkSize: number): Promise<Cell> {
  const chunks = splitText(input.text, chunkSize).length;
  const measureHeap = chunkSize === TARGET_CHUNK;
  // Rounds go over all contenders, so a change in the machine's load falls on all of them.
  const results: JsonParserWorkerResult[][] = contenders.map(() => []);
  for (let round = 0; round < plannedProcesses(input.steps, chunkSize); round++) {
    for (const [index, contender] of contenders.entries()) {
      results[index]!.push(
        await measureInWorker(contender.id, input, chunkSize, chunks, RUN_BUDGET_MS, measureHeap && round === 0),
      );
    }
  }
  for (const [index, contender] of contenders.entries()) {
    const medians = results[index]!.map((result) => result.ms);
    if (Math.max(...medians) > Math.min(...medians) * (1 + DISAGREEMENT)) {
      results[index]!.push(await measureInWorker(contender.id, input, chunkSize, chunks, RUN_BUDGET_MS, false));
    }
  }
  const ms = results.map((own) => median(own.map((result) => result.ms)));
  const partial = await measureInWorker(
    partialJsonContender.id,
    input,
    chunkSize,
    chunks,
    QUADRATIC_BUDGET_MS,
    measureHeap,
  );
  if (partial.partial === undefined)
    throw new Error(`parsePartialJson, N=${input.steps}, ${chunkSize}-char chunks: the worker reported no pass`);
  const { extrapolated, calls, totalCalls, parsedChars, totalChars } = partial.partial;
  const progress = contenders.map(
    (contender, index) => `${contender.id} ${results[index]!.map((result) => formatMs(result.ms)).join("/")}`,
  );
  console.error(
    `  N=${input.steps}, ${chunkSize}-char chunks: ${progress.join(", ")}, parsePartialJson ${extrapolated ? "≈ " : ""}${formatMs(partial.ms)}${partial.ms >= 100_000 ? "" : " ms"}`,
  );
  return {
    steps: input.steps,
    chunkSize,
    chunks,
    ms,
    processMs: results.map((own) => own.map((result) => result.ms)),
    rounds: results.map((own) => own.map((result) => result.times.length)),
    allocated: measureHeap ? results.map((own) => own[0]!.allocated) : undefined,
    quadratic: { ms: partial.ms, extrapolated, calls, totalCalls, parsedChars, totalChars, runs: partial.times.length },
    quadraticAllocated: partial.allocated,
  };
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

/**
 * `JSON.parse` parses the same joined text whatever the chunk size, so one
 * figure per N serves every column: the median over all its processes of
 * that N. Timed per column, the same work came out 1.37 ms in one column
 * and 1.93 ms in the next, which moved every ratio over it by as much.
 */
function poolBaseline(cells: readonly Cell[]): void {
  const index = contenders.findIndex((contender) => contender.kind === "baseline");
  for (const steps of new Set(cells.map((cell) => cell.steps))) {
    const row = cells.filter((cell) => cell.steps === steps);
    const pooled = median(row.flatMap((cell) => cell.processMs[index]!));
    for (const cell of row) cell.ms[index] = pooled;
  }
}

/** How many processes each N's pooled `JSON.parse` figure rests on, e.g. "6–8". */
function processesPerBaseline(cells: readonly Cell[]): string {
  const index = contenders.findIndex((contender) => contender.kind === "baseline");
  const counts = [...new Set(cells.map((cell) => cell.steps))].map((steps) =>
    cells.filter((cell) => cell.steps === steps).reduce((sum, cell) => sum + cell.processMs[index]!.length, 0),
  );
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  return low === high ? `${low}` : `${low}–${high}`;
}

function baselineMs(cell: Cell): number {
  return cell.ms[contenders.findIndex((contender) => contender.kind === "baseline")]!;
}

function tableFor(steps: number, cells: readonly Cell[], input: Input): string {
  const row = cells.filter((cell) => cell.steps === steps);
  const header = [
    "parser",
    ...row.flatMap((cell) => [`${cell.chunkSize}-char ms`, "÷ peer", "÷ JSON.parse"]),
    `heap MB (${TARGET_CHUNK}-char)`,
  ];
  const target = row.find((cell) => cell.chunkSize === TARGET_CHUNK);
  const cellsOf = (ms: (cell: Cell) => number, mark: (cell: Cell) => string): string[] =>
    row.flatMap((cell) => {
      const value = ms(cell);
      return [
        `${mark(cell)}${formatMs(value)}${mark(cell) === "" ? "" : " †"}`,
        formatRatio(value / fastestPeer(cell).ms),
        formatRatio(value / baselineMs(cell)),
      ];
    });
  const rows = contenders.map((contender, index) => [
    contender.label,
    ...cellsOf(
      (cell) => cell.ms[index]!,
      () => "",
    ),
    formatMegabytes(target?.allocated?.[index]),
  ]);
  rows.push([
    QUADRATIC_LABEL,
    ...cellsOf(
      (cell) => cell.quadratic.ms,
      (cell) => (cell.quadratic.extrapolated ? "≈ " : ""),
    ),
    formatMegabytes(target?.quadraticAllocated),
  ]);
  const chunkCounts = row
    .map((cell) => `${cell.chunks.toLocaleString("en-US")} chunks of ${cell.chunkSize}`)
    .join(", ");
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
    if (!q.extrapolated)
      return `- ${where}: measured, all ${q.totalCalls.toLocaleString("en-US")} calls, median of ${q.runs} run${q.runs === 1 ? "" : "s"}; final value checked.`;
    return `- ${where}: **extrapolated** — ${q.calls.toLocaleString("en-US")} of ${q.totalCalls.toLocaleString("en-US")} calls ran in ${QUADRATIC_BUDGET_MS / 1000} s, parsing ${q.parsedChars.toLocaleString("en-US")} of the ${q.totalChars.toLocaleString("en-US")} characters all calls would parse; ≈ ${formatMs(q.ms)}${q.ms >= 100_000 ? "" : " ms"} assumes time proportional to characters parsed (a lower bound if longer texts cost more per character). Its value on the whole text was checked.`;
  });
}

/**
 * A contender's time over another's, taken per round (the two processes ran
 * within seconds of each other) and summed up as the median over the rounds
 * planned for the cell, with the lowest and highest. This machine's speed
 * drifts for seconds at a time (`JSON.parse` alone took 1.45 ms in some
 * processes and 2.4 ms in the next ones), moving every contender alike: a
 * ratio of times measured close together cancels that drift, a ratio of
 * medians over all processes does not.
 */
function pairedRatio(cell: Cell, index: number, other: number): { median: number; low: number; high: number } {
  const rounds = plannedProcesses(cell.steps, cell.chunkSize);
  const ratios = Array.from(
    { length: rounds },
    (_, round) => cell.processMs[index]![round]! / cell.processMs[other]![round]!,
  );
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

function formatPaired(ratio: { median: number; low: number; high: number }): string {
  return `${ratio.median.toFixed(2)}× (rounds: ${ratio.low.toFixed(2)}–${ratio.high.toFixed(2)}×)`;
}

function targets(cells: readonly Cell[], sizes: ReadonlyMap<number, number>): string[] {
  const target = cells.find((cell) => cell.steps === TARGET_STEPS && cell.chunkSize === TARGET_CHUNK);
  const previous = cells.find((cell) => cell.steps === TARGET_STEPS / 10 && cell.chunkSize === TARGET_CHUNK);
  if (target === undefined || previous === undefined) return [];
  const peer = fastestPeer(target);
  const sizeRatio = sizes.get(TARGET_STEPS)! / sizes.get(TARGET_STEPS / 10)!;
  const verdict = (met: boolean): string => (met ? "**met**" : "**not met**");
  const lines: string[] = [];
  const jsonparseIndex = contenders.findIndex((contender) => contender.id === "jsonparse");
  const baselineIndex = contenders.findIndex((contender) => contender.kind === "baseline");
  const jsonparseMs = target.ms[jsonparseIndex]!;
  lines.push(
    `Ratios are taken per round of processes and summed up as their median (${plannedProcesses(TARGET_STEPS, TARGET_CHUNK)} rounds; see \`pairedRatio\`); the ratio of the medians in the table follows in brackets.`,
    "",
  );
  contenders.forEach((contender, index) => {
    if (contender.kind !== "plankit" && contender.kind !== "reference") return;
    const ms = target.ms[index]!;
    const speedup = pairedRatio(target, jsonparseIndex, index);
    const overBaseline = pairedRatio(target, index, baselineIndex);
    const growth = ms / previous.ms[index]!;
    if (contender.kind === "reference") {
      lines.push(
        `- ${contender.label}: ${formatPaired(overBaseline)} \`JSON.parse\` [${(ms / baselineMs(target)).toFixed(2)}×], ${formatPaired(speedup)} faster than jsonparse — what any push parser written in JavaScript costs here at the least.`,
      );
      return;
    }
    lines.push(
      `- ${contender.label}:`,
      `  - ≥ 3× faster than jsonparse (${formatMs(jsonparseMs)} ms): ${formatPaired(speedup)} faster [${(jsonparseMs / ms).toFixed(2)}×] — ${verdict(speedup.median >= 3)} (fastest peer: ${peer.label}, ${formatMs(peer.ms)} ms, ${(peer.ms / ms).toFixed(2)}×)`,
      `  - ≤ 3× \`JSON.parse\` on the joined text (${formatMs(baselineMs(target))} ms): ${formatPaired(overBaseline)} [${(ms / baselineMs(target)).toFixed(2)}×] — ${verdict(overBaseline.median <= 3)}`,
      `  - linear growth N=${TARGET_STEPS / 10}→${TARGET_STEPS}: time ×${growth.toFixed(2)} for input ×${sizeRatio.toFixed(2)} (met when within 1.3× of the input ratio) — ${verdict(growth <= sizeRatio * 1.3)}`,
    );
  });
  const others = contenders
    .map((contender, index) =>
      contender.kind === "plankit"
        ? undefined
        : `${contender.label.split(" (")[0]} ×${(target.ms[index]! / previous.ms[index]!).toFixed(2)}`,
    )
    .filter((item) => item !== undefined);
  lines.push(`- For comparison, N=${TARGET_STEPS / 10}→${TARGET_STEPS} growth of the others: ${others.join(", ")}.`);
  return lines;
}

const MEMORY_WORKER = fileURLToPath(new URL("./lib/json-memory-worker.ts", import.meta.url));

/** Runs one memory scenario in a fresh process (see `lib/json-memory-worker.ts`). */
function runMemoryWorker(args: readonly string[]): Promise<JsonMemoryResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--disable-warning=ExperimentalWarning", MEMORY_WORKER, ...args],
      { stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`memory worker ${args.join(" ")} exited with code ${code}\n${stderr.trim()}`));
      else resolve(JSON.parse(stdout) as JsonMemoryResult);
    });
  });
}

/** The memory section: heap held by short strings fed one character at a time, and the peak heap of a long stream. */
async function memorySection(): Promise<string[]> {
  const parsers = ["json-parse", "plankit-lenient", "plankit-strict"];
  const rows: string[][] = [];
  const lines: string[] = [];
  for (const scenario of ["strings-unique", "strings-repeated"]) {
    const results: JsonMemoryResult[] = [];
    for (const parser of parsers) results.push(await runMemoryWorker([`--scenario=${scenario}`, `--parser=${parser}`]));
    const base = results[0]!.heldBytes!;
    for (const result of results)
      rows.push([
        scenario === "strings-unique" ? "all different" : "100 distinct, repeated",
        result.parser,
        formatMegabytes(result.heldBytes),
        formatRatio(result.heldBytes! / base),
      ]);
    for (const result of results.slice(1)) {
      const ratio = result.heldBytes! / base;
      lines.push(
        `- ${result.parser}, ${scenario}: ${ratio.toFixed(2)}× the heap \`JSON.parse\`'s value holds — ${ratio <= 3 ? "**met**" : "**not met**"} (≤ 3×)`,
      );
    }
  }
  const streams = [
    await runMemoryWorker(["--scenario=stream", "--parser=plankit-lenient", "--megabytes=100"]),
    await runMemoryWorker(["--scenario=stream", "--parser=plankit-strict", "--megabytes=100"]),
    await runMemoryWorker(["--scenario=stream", "--parser=plankit-lenient", "--megabytes=10", "--keep"]),
  ];
  const streamRows = streams.map((result) => [
    result.parser,
    (result.textLength / 1024 / 1024).toFixed(0),
    (result.elements ?? 0).toLocaleString("en-US"),
    formatMegabytes(result.peakBytes),
  ]);
  return [
    "### Memory",
    "",
    "Heap held by the parsed value of a JSON array of about 12 MB of short strings, fed in 1-character chunks (`JSON.parse`: the whole text), after full collections, each in a fresh process (`test/bench/lib/json-memory-worker.ts`). `JSON.parse` shares one copy of a short string among its occurrences, hence the second input.",
    "",
    formatTable(["strings", "parser", "held MB", "÷ JSON.parse"], rows),
    "",
    ...lines,
    "",
    "A stream of plan steps generated on the fly and fed in 4 KiB chunks, each handed-out step dropped by the caller: peak used heap above the start (sampled every 64 chunks, no forced collection). With `keepElements: false` it stays bounded; keeping the elements (10 MB only) grows with the stream.",
    "",
    formatTable(["parser", "stream MB", "steps", "peak heap MB"], streamRows),
    "",
  ];
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
    const seed = 2024 + steps;
    const text = generatePlanText(steps, seed);
    return { steps, seed, text, expected: JSON.parse(text) };
  });
  // Fail before any timing if a parser gets any input or chunking wrong.
  for (const input of inputs) {
    for (const chunkSize of CHUNK_SIZES) {
      const chunks = splitText(input.text, chunkSize);
      for (const contender of contenders) await verify(contender, chunks, input, chunkSize);
    }
    await verifyQuadratic(input);
  }
  // The timing happens in other processes; this one's garbage need not linger meanwhile.
  globalThis.gc?.();

  const started = performance.now();
  const cells: Cell[] = [];
  for (const input of inputs) {
    for (const chunkSize of CHUNK_SIZES) cells.push(await measureCell(input, chunkSize));
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  poolBaseline(cells);
  const sizes = new Map(inputs.map((input) => [input.steps, input.text.length]));
  const processCounts = cells.flatMap((cell) => cell.rounds.map((own) => own.length));
  const processes = processCounts.reduce((sum, count) => sum + count, cells.length);
  const thirds = cells.flatMap((cell) =>
    cell.rounds.filter((own) => own.length > plannedProcesses(cell.steps, cell.chunkSize)),
  ).length;
  const roundCounts = cells.flatMap((cell) => cell.rounds.flat());

  return [
    "## Streaming JSON parser",
    "",
    `Generated plans (\`test/bench/lib/generate-plan-text.ts\`, seeded): N steps of about ${Math.round(inputs[2]!.text.length / inputs[2]!.steps)} characters, one per line, with CJK, accented letters, emoji, \`\\n\` \`\\t\` \`\\"\` \`\\u00e9\` and surrogate-pair escapes, nested arguments, numbers, booleans and null. Each text is split before timing into chunks of 1, 4 or 64 code points (an emoji is never cut). A streaming run feeds every chunk and collects the root array's elements as the parser hands them out (jsonriver has no per-element output: it is driven to its final value). Every parser's output was checked to deep-equal \`JSON.parse\`'s (keys in order) on every input and chunk size before timing; plankit's \`end()\` value too.`,
    "",
    `Each (contender, N, chunk size) cell was timed in fresh Node processes of its own (\`test/bench/lib/json-parser-worker.ts\`; ${processes} processes, run one after another, ${seconds} s), so that no contender's garbage, compiled code or heap sizing carries over to the next: timed one after another in a single process, results moved by 25–80% with the order. A process generates the same seeded input, loads only its contender's module, warms up (at least 300 ms and 10 runs, or 1 s when 10 runs take longer), then times as many runs as fit in ${RUN_BUDGET_MS} ms, at least 5 and at most 101 (${Math.min(...roundCounts)}–${Math.max(...roundCounts)} here), with no GC forced (the collections a parser's own runs cause count; a forced GC would slow the next few hundred milliseconds of work). Each streaming contender and \`JSON.parse\` got ${PROCESSES_PER_CELL} processes per cell (${TARGET_PROCESSES} in the N=${TARGET_STEPS}, ${TARGET_CHUNK}-char cell the targets are judged on), in rounds over all contenders, and one more when their medians differed by more than ${DISAGREEMENT * 100}% (${thirds} of ${processCounts.length} cells), since a fresh process now and then settles in a slower state for its whole life; a time is the median of its processes' medians, in milliseconds. \`JSON.parse\` parses the same joined text whatever the chunk size, so its figure is one per N, the median over all its processes of that N in every column (${processesPerBaseline(cells)} processes each): timed per column, the same work once came out 1.37 ms in one column and 1.93 ms in the next, and every ratio over it moved as much. "÷ peer" is the time over the fastest peer's in the same cell (jsonparse, @streamparser/json, jsonriver, \`parsePartialJson\`); "÷ JSON.parse" the time over that \`JSON.parse\` figure. "heap MB" is JavaScript heap allocated by one run with ${TARGET_CHUNK}-char chunks, measured in the first process after its timing (growth plus what GCs during the run freed; jsonparse's Buffers are off-heap and not counted). † marks extrapolated figures (notes below the tables).`,
    "",
    ...inputs.flatMap((input) => [tableFor(input.steps, cells, input), ""]),
    `\`parsePartialJson\` (async, re-parses the whole accumulated text on every chunk, as the AI SDK's partial-object streaming does) gets a process per cell too, warms up for 300 ms, then one pass over the chunks may take ${QUADRATIC_BUDGET_MS / 1000} s; a pass that finishes is repeated (up to 5) while that budget lasts:`,
    "",
    ...quadraticNotes(cells),
    "",
    `### Targets (N = ${TARGET_STEPS}, ${TARGET_CHUNK}-char chunks)`,
    "",
    ...targets(cells, sizes),
    "",
    ...(await memorySection()),
  ].join("\n");
}
