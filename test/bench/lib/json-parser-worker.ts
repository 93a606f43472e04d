/**
 * Times one (contender, N, chunk size) cell of the JSON parser benchmark in
 * a process of its own and prints a `JsonParserWorkerResult` as JSON on
 * stdout. Started by `runJsonParserWorker`, one process per cell:
 *
 *     node --expose-gc test/bench/lib/json-parser-worker.ts --contender=jsonriver \
 *       --steps=1000 --seed=3024 --chunk-size=4 --budget-ms=500 [--heap]
 *
 * It generates the seeded input itself, loads only the contender's module,
 * warms up (at least 300 ms and 10 runs, or 1 s when 10 runs take longer),
 * then times runs until the budget is spent (5 to 101 runs). No collection is
 * forced before or between runs: the collections a parser's own garbage
 * causes count, and after a forced full GC V8 runs the next few hundred
 * milliseconds of work measurably slower. With `--heap` it then measures the
 * heap one run allocates (after a forced GC, so after the timing).
 *
 * `parsePartialJson` re-parses the accumulated text on every chunk: it warms
 * up for 300 ms, then one pass gets the whole budget; a pass that does not
 * finish is extrapolated, a pass that does is repeated (up to 5) while the
 * budget lasts, and its final value is checked against `JSON.parse`.
 *
 * Errors go to stderr with exit code 1.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { findJsonDifference } from "./find-json-difference.ts";
import { generatePlanText } from "./generate-plan-text.ts";
import { type JsonParserRun, jsonParserContenders } from "./json-parser-contenders.ts";
import { measureAllocation } from "./measure-allocation.ts";
import { median } from "./median.ts";
import { partialJsonContender } from "./partial-json-contender.ts";
import type { JsonParserWorkerResult } from "./run-json-parser-worker.ts";
import { splitText } from "./split-text.ts";
import { timeRun } from "./time-run.ts";

/** Warm-up: at least this long, and this many runs unless they take longer than the cap. */
const WARM_UP_MS = 300;
const WARM_UP_RUNS = 10;
const WARM_UP_CAP_MS = 1000;
const MIN_ROUNDS = 5;
const MAX_ROUNDS = 101;
const PARTIAL_MAX_RUNS = 5;

function integerOption(values: Record<string, string | boolean | undefined>, name: string): number {
  const raw = values[name];
  const value = typeof raw === "string" ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return value;
}

async function measureRuns(
  run: JsonParserRun,
  chunks: readonly string[],
  text: string,
  budgetMs: number,
  measureHeap: boolean,
): Promise<Omit<JsonParserWorkerResult, "textLength" | "chunks">> {
  const warmUp: number[] = [];
  const start = performance.now();
  for (;;) {
    const elapsed = performance.now() - start;
    if (elapsed >= WARM_UP_MS && (warmUp.length >= WARM_UP_RUNS || elapsed >= WARM_UP_CAP_MS)) break;
    warmUp.push(await timeRun(() => run(chunks, text)));
  }
  const warmUpMs = performance.now() - start;
  // The last warm-up runs are the closest to the steady state.
  const estimate = median(warmUp.slice(-WARM_UP_RUNS));
  const count = Math.min(MAX_ROUNDS, Math.max(MIN_ROUNDS, Math.ceil(budgetMs / Math.max(estimate, 1e-3))));
  const times: number[] = [];
  for (let round = 0; round < count; round++) times.push(await timeRun(() => run(chunks, text)));
  const allocated = measureHeap ? await measureAllocation(() => run(chunks, text)) : undefined;
  return { warmUpRuns: warmUp.length, warmUpMs, times, ms: median(times), allocated, partial: undefined };
}

async function measurePartial(
  chunks: readonly string[],
  text: string,
  budgetMs: number,
  measureHeap: boolean,
): Promise<Omit<JsonParserWorkerResult, "textLength" | "chunks">> {
  const pass = await partialJsonContender.load();
  let totalChars = 0;
  let length = 0;
  for (const chunk of chunks) {
    length += chunk.length;
    totalChars += length;
  }
  let warmUpRuns = 0;
  const warmUpStart = performance.now();
  while (performance.now() - warmUpStart < WARM_UP_MS) {
    await pass(chunks, warmUpStart + WARM_UP_MS);
    warmUpRuns++;
  }
  const warmUpMs = performance.now() - warmUpStart;

  const begin = performance.now();
  const first = await pass(chunks, begin + budgetMs);
  const progress = { calls: first.calls, totalCalls: chunks.length, parsedChars: first.parsedChars, totalChars };
  if (first.calls < chunks.length) {
    // Each call's cost taken as proportional to the length it parses.
    const ms = (first.ms * totalChars) / Math.max(1, first.parsedChars);
    return {
      warmUpRuns,
      warmUpMs,
      times: [first.ms],
      ms,
      allocated: undefined,
      partial: { extrapolated: true, ...progress },
    };
  }
  const difference = findJsonDifference(first.last, JSON.parse(text));
  if (difference !== undefined)
    throw new Error(`${partialJsonContender.label}: output differs from JSON.parse ${difference}`);
  const times = [first.ms];
  while (times.length < PARTIAL_MAX_RUNS && performance.now() - begin + first.ms < budgetMs) {
    times.push((await pass(chunks, Number.POSITIVE_INFINITY)).ms);
  }
  const allocated = measureHeap ? await measureAllocation(() => pass(chunks, Number.POSITIVE_INFINITY)) : undefined;
  return { warmUpRuns, warmUpMs, times, ms: median(times), allocated, partial: { extrapolated: false, ...progress } };
}

try {
  const { values } = parseArgs({
    options: {
      contender: { type: "string" },
      steps: { type: "string" },
      seed: { type: "string" },
      "chunk-size": { type: "string" },
      "budget-ms": { type: "string" },
      heap: { type: "boolean", default: false },
    },
    strict: true,
  });
  const id = values.contender;
  const steps = integerOption(values, "steps");
  const seed = integerOption(values, "seed");
  const chunkSize = integerOption(values, "chunk-size");
  const budgetMs = integerOption(values, "budget-ms");
  const text = generatePlanText(steps, seed);
  const chunks = splitText(text, chunkSize);
  let measured: Omit<JsonParserWorkerResult, "textLength" | "chunks">;
  if (id === partialJsonContender.id) {
    measured = await measurePartial(chunks, text, budgetMs, values.heap);
  } else {
    const contender = jsonParserContenders.find((candidate) => candidate.id === id);
    if (contender === undefined) {
      throw new Error(
        `--contender must be one of ${[...jsonParserContenders.map((candidate) => candidate.id), partialJsonContender.id].join(", ")}, got ${JSON.stringify(id)}`,
      );
    }
    const { run } = await contender.load();
    measured = await measureRuns(run, chunks, text, budgetMs, values.heap);
  }
  const result: JsonParserWorkerResult = { textLength: text.length, chunks: chunks.length, ...measured };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
