/**
 * Measures the heap of one memory scenario of the JSON parser benchmark in a
 * process of its own and prints a `JsonMemoryResult` as JSON on stdout:
 *
 *     node --expose-gc test/bench/lib/json-memory-worker.ts --scenario=strings-unique --parser=plankit-lenient
 *
 * Scenarios:
 *
 * - `strings-unique` / `strings-repeated`: a JSON array of about 12 MB of
 *   short strings (all different, or 1,200 distinct ones repeated), fed in
 *   1-character chunks (JSON.parse: the whole text). `heldBytes` is the heap
 *   the parsed value holds: used heap after full collections with the value
 *   alive, minus before.
 * - `stream`: a stream of plan steps (`--megabytes`, default 100) generated
 *   on the fly and fed in 4 KiB chunks to a parser with `keepElements:
 *   false` (or `true` with `--keep`); each handed-out step is dropped.
 *   `peakBytes` is the largest used heap seen (sampled every 64 chunks)
 *   minus the heap before, without forced collections.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createJsonStreamParser } from "../../../src/json.ts";
import { generatePlanText } from "./generate-plan-text.ts";

/** What the worker prints. */
export interface JsonMemoryResult {
  scenario: string;
  parser: string;
  /** UTF-16 code units of input. */
  textLength: number;
  heldBytes: number | undefined;
  peakBytes: number | undefined;
  /** Elements handed out (stream scenario). */
  elements: number | undefined;
}

const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"];

function stringsText(unique: boolean): string {
  const parts: string[] = [];
  let length = 2;
  for (let index = 0; length < 12 * 1024 * 1024; index++) {
    const item = JSON.stringify(`${words[index % words.length]}${unique ? index : index % 100}`);
    parts.push(item);
    length += item.length + 1;
  }
  return `[${parts.join(",")}]`;
}

function usedHeap(): number {
  return process.memoryUsage().heapUsed;
}

function collect(): void {
  globalThis.gc?.();
  globalThis.gc?.();
}

function held(make: () => unknown): number {
  collect();
  const before = usedHeap();
  const value = make();
  collect();
  const after = usedHeap();
  // Keep the value alive until here.
  if (value === undefined) throw new Error("no value");
  return after - before;
}

function parseStrings(parser: string, text: string): unknown {
  if (parser === "json-parse") return JSON.parse(text);
  const stream = createJsonStreamParser(parser === "plankit-strict" ? { strict: true } : {});
  for (let index = 0; index < text.length; index++) stream.write(text[index]!);
  return stream.end();
}

function runStream(parser: string, megabytes: number, keep: boolean): JsonMemoryResult {
  // Steps of a generated plan, one per line, repeated until the stream is long enough.
  const lines = generatePlanText(200, 4242)
    .split("\n")
    .slice(1, -1)
    .map((line) => line.replace(/,$/u, ""));
  const target = megabytes * 1024 * 1024;
  const stream = createJsonStreamParser({ strict: parser === "plankit-strict", keepElements: keep });
  collect();
  const before = usedHeap();
  let peak = before;
  let written = 0;
  let elements = 0;
  let pending = "[";
  let chunks = 0;
  for (let index = 0; written < target; index++) {
    pending += `${index === 0 ? "" : ",\n"}${lines[index % lines.length]!}`;
    while (pending.length >= 4096) {
      elements += stream.write(pending.slice(0, 4096)).length;
      written += 4096;
      pending = pending.slice(4096);
      if (++chunks % 64 === 0) peak = Math.max(peak, usedHeap());
    }
  }
  elements += stream.write(`${pending}]`).length;
  written += pending.length + 1;
  stream.end();
  peak = Math.max(peak, usedHeap());
  return {
    scenario: "stream",
    parser: `${parser}${keep ? " (keepElements)" : ""}`,
    textLength: written,
    heldBytes: undefined,
    peakBytes: peak - before,
    elements,
  };
}

const { values } = parseArgs({
  options: {
    scenario: { type: "string" },
    parser: { type: "string" },
    megabytes: { type: "string" },
    keep: { type: "boolean" },
  },
});
const scenario = values.scenario ?? "";
const parser = values.parser ?? "";
if (!["json-parse", "plankit-lenient", "plankit-strict"].includes(parser))
  throw new Error(`unknown --parser ${JSON.stringify(parser)}`);
let result: JsonMemoryResult;
if (scenario === "strings-unique" || scenario === "strings-repeated") {
  const text = stringsText(scenario === "strings-unique");
  result = {
    scenario,
    parser,
    textLength: text.length,
    heldBytes: held(() => parseStrings(parser, text)),
    peakBytes: undefined,
    elements: undefined,
  };
} else if (scenario === "stream") {
  result = runStream(parser, Number(values.megabytes ?? "100"), values.keep === true);
} else {
  throw new Error(`unknown --scenario ${JSON.stringify(scenario)}`);
}
console.log(JSON.stringify(result));
