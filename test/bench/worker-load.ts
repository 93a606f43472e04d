/**
 * `npm run bench:worker`: opens 200 concurrent `POST /v1/run` streams
 * against `wrangler dev` (with the offline demo model at its normal pace)
 * and reports errors and latency percentiles (response headers, first
 * planned step, first content of the reply, run end), as markdown on stdout and in
 * `.tmp/bench-worker.md`.
 *
 *     node test/bench/worker-load.ts [--streams 200] [--rate 45]
 *
 * A stream counts as an error when the status is not 200, the connection
 * fails, or the stream ends without a `run-end` event whose reason is
 * `completed`.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildDemo } from "../../scripts/lib/build-demo.ts";
import { startWranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const { values } = parseArgs({
  options: { streams: { type: "string", default: "200" }, rate: { type: "string", default: "45" } },
});
const streams = Number(values.streams);
const rate = values.rate;

const queries = [
  "compare the populations of Tokyo and Paris and compute their ratio",
  "How tall is the Eiffel Tower in feet?",
  "What time is it in Tokyo and New York?",
  "total population of London, Paris and Berlin",
];

/** What one stream measured, in milliseconds from its request. */
interface StreamResult {
  ok: boolean;
  error?: string;
  headersMs: number;
  firstStepMs: number;
  /** The first piece of the reply: a `reply-delta` event, or the `reply` when the run sends it whole. */
  firstContentMs: number;
  endMs: number;
  events: number;
}

/**
 * Runs one stream to its end.
 *
 * @param url - the server.
 * @param query - the request.
 * @returns what it measured.
 */
async function runStream(url: string, query: string): Promise<StreamResult> {
  const started = performance.now();
  const result: StreamResult = {
    ok: false,
    headersMs: NaN,
    firstStepMs: NaN,
    firstContentMs: NaN,
    endMs: NaN,
    events: 0,
  };
  try {
    const response = await fetch(`${url}/v1/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    result.headersMs = performance.now() - started;
    if (response.status !== 200 || response.body === null) {
      result.error = `status ${response.status}`;
      await response.body?.cancel();
      return result;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    let reason: string | undefined;
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const type = /^event: (.*)$/mu.exec(message)?.[1];
        // The retry hint and keep-alive comments are not events.
        if (type === undefined) continue;
        result.events++;
        if (type === "step-planned" && Number.isNaN(result.firstStepMs))
          result.firstStepMs = performance.now() - started;
        if ((type === "reply-delta" || type === "reply") && Number.isNaN(result.firstContentMs))
          result.firstContentMs = performance.now() - started;
        if (type === "run-end")
          reason = (JSON.parse(/^data: (.*)$/mu.exec(message)?.[1] ?? "{}") as { reason?: string }).reason;
      }
    }
    result.endMs = performance.now() - started;
    result.ok = reason === "completed";
    if (!result.ok) result.error = reason === undefined ? "no run-end event" : `run ended: ${reason}`;
  } catch (error) {
    result.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return result;
}

/**
 * The value at a percentile (nearest rank).
 *
 * @param sorted - values in ascending order.
 * @param percent - 0–100.
 * @returns the value, or NaN for no values.
 */
function percentile(sorted: readonly number[], percent: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * One table row of latency percentiles.
 *
 * @param name - what was measured.
 * @param values - the measurements.
 * @returns the markdown row.
 */
function row(name: string, values: readonly number[]): string {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const cells = [50, 90, 99].map((percent) => percentile(sorted, percent)).concat(sorted.at(-1) ?? Number.NaN);
  return `| ${name} | ${sorted.length} | ${cells.map((value) => (Number.isFinite(value) ? value.toFixed(0) : "–")).join(" | ")} |`;
}

await buildDemo(root);
const server = await startWranglerDev(root, { vars: { PLANKIT_DEMO_TOKENS_PER_SECOND: rate } });
let report: string;
try {
  // One warm-up stream, so the first request's module load is not measured.
  await runStream(server.url, queries[0] ?? "");
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: streams }, (_, index) => runStream(server.url, queries[index % queries.length] ?? "")),
  );
  const wallMs = performance.now() - started;
  const failures = results.filter((result) => !result.ok);
  const reasons = new Map<string, number>();
  for (const failure of failures)
    reasons.set(failure.error ?? "unknown", (reasons.get(failure.error ?? "unknown") ?? 0) + 1);
  const ok = results.filter((result) => result.ok);
  report = [
    "## Worker load: concurrent `/v1/run` streams against `wrangler dev`",
    "",
    `${streams} concurrent streams, offline demo model at ${rate} tokens/s, ${queries.length} request kinds in rotation; ${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}.`,
    "",
    `Errors: **${failures.length}** of ${streams}${failures.length === 0 ? "" : ` (${[...reasons].map(([reason, count]) => `${count}× ${reason}`).join("; ")})`}. Wall time ${(wallMs / 1000).toFixed(1)} s; ${ok.reduce((sum, result) => sum + result.events, 0)} events streamed.`,
    "",
    "| latency (ms) | streams | p50 | p90 | p99 | max |",
    "|---|---|---|---|---|---|",
    row(
      "response headers",
      results.map((result) => result.headersMs),
    ),
    row(
      "first planned step",
      ok.map((result) => result.firstStepMs),
    ),
    row(
      "first content (reply)",
      ok.map((result) => result.firstContentMs),
    ),
    row(
      "run end",
      ok.map((result) => result.endMs),
    ),
    "",
    "The demo model streams each plan at a human-like pace, so most of a run's time is the plan being written; the first step starts as soon as its JSON closes.",
    "",
  ].join("\n");
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  await server.stop();
}
console.log(report);
mkdirSync(join(root, ".tmp"), { recursive: true });
writeFileSync(join(root, ".tmp", "bench-worker.md"), report);
