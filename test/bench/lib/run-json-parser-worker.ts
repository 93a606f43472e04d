import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One (contender, N, chunk size) cell for `json-parser-worker.ts` to time. */
export interface JsonParserWorkerRequest {
  /** A contender's `id` (`jsonParserContenders` or `partialJsonContender`). */
  contender: string;
  /** Plan steps and seed handed to `generatePlanText`. */
  steps: number;
  seed: number;
  /** Code points per chunk, for `splitText`. */
  chunkSize: number;
  /**
   * Milliseconds for the timed runs. For `parsePartialJson`, the time one
   * pass may take before it is stopped and extrapolated.
   */
  budgetMs: number;
  /** Also measure the heap one run allocates, after the timing. */
  measureHeap: boolean;
}

/** What `json-parser-worker.ts` prints on stdout, as JSON. */
export interface JsonParserWorkerResult {
  /** Length of the generated text and number of chunks, to confirm the input. */
  textLength: number;
  chunks: number;
  warmUpRuns: number;
  warmUpMs: number;
  /** Milliseconds of each timed run, in order, and their median. */
  times: number[];
  /** Median of `times`; for an extrapolated `parsePartialJson` pass, the extrapolated time. */
  ms: number;
  /** Bytes of JavaScript heap one run allocated, when requested and measurable. */
  allocated: number | undefined;
  /** For `parsePartialJson` only: how far its first pass got before the budget ran out. */
  partial:
    | {
        extrapolated: boolean;
        /** Calls made in the first pass, and calls needed for the whole text. */
        calls: number;
        totalCalls: number;
        /** Characters parsed by the calls made, and by all calls. */
        parsedChars: number;
        totalChars: number;
      }
    | undefined;
}

const WORKER = fileURLToPath(new URL("./json-parser-worker.ts", import.meta.url));
/** A worker that takes longer than this is stuck; it is killed and the cell fails. */
const WORKER_TIMEOUT_MS = 120_000;

/**
 * Times one cell of the JSON parser benchmark in a fresh Node process, so
 * that no other parser's garbage, JIT state or heap sizing is inherited:
 * spawns the running Node binary with `--expose-gc` on
 * `json-parser-worker.ts` and waits for it. Call it for one cell at a time;
 * workers running side by side would slow each other down.
 *
 * @param request - the contender, input and budget.
 * @returns the worker's measurements.
 * @throws Error when the worker exits with an error (a wrong result, an
 *   unknown contender) or prints something other than its JSON result.
 * @example
 * ```ts
 * const { ms } = await runJsonParserWorker({ contender: "jsonriver", steps: 100, seed: 2124, chunkSize: 4, budgetMs: 500, measureHeap: false });
 * ```
 */
export function runJsonParserWorker(request: JsonParserWorkerRequest): Promise<JsonParserWorkerResult> {
  const argv = [
    "--expose-gc",
    "--disable-warning=ExperimentalWarning",
    WORKER,
    `--contender=${request.contender}`,
    `--steps=${request.steps}`,
    `--seed=${request.seed}`,
    `--chunk-size=${request.chunkSize}`,
    `--budget-ms=${request.budgetMs}`,
    ...(request.measureHeap ? ["--heap"] : []),
  ];
  const where = `${request.contender}, N=${request.steps}, ${request.chunkSize}-char chunks`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe"], timeout: WORKER_TIMEOUT_MS });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code !== 0) {
        reject(
          new Error(
            `${where}: worker ${signal === null ? `exited with code ${code}` : `was killed (${signal})`}\n${stderr.trim()}`,
          ),
        );
        return;
      }
      try {
        resolve(JSON.parse(stdout) as JsonParserWorkerResult);
      } catch {
        reject(
          new Error(
            `${where}: worker printed no JSON result: ${JSON.stringify(stdout.slice(0, 200))}\n${stderr.trim()}`,
          ),
        );
      }
    });
  });
}
