/**
 * Durable runs under `wrangler dev`: the demo's requests through `/v1/run` and a durable `/v1/runs`, on the local Workflows engine.
 *
 * Starts the Worker of the e2e suite (the demo's model, at its normal pace,
 * and tools; the `PlanSession` and `PlanWorkflow` bindings) with its state in
 * a fresh directory, and sends each request alternately as `POST /v1/run`
 * (read as Server-Sent Events) and as a durable `POST /v1/runs` (its log read
 * from `GET /v1/runs/:id/events`). For each run: when the first tool started
 * and when the plan ended (the events' `t`, from the run's start), when the
 * client had `run-end` (from its request), and for a durable run the
 * Workflow steps the local engine stored for the instance (the distinct
 * step names in the instance's storage), against the goal of the plan's
 * steps + the model calls + 2. Local figures on a shared machine: the
 * hosted engine's latencies differ.
 *
 * @module
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { formatTable } from "./lib/format-table.ts";
import { median } from "./lib/median.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/u, "");

/** The demo's multi-step request, and the one whose two lookups take about 1.5 s each. */
const requests = [
  "compare the populations of Tokyo and Paris and compute their ratio",
  "Compare the populations of Tokyo and Paris with a deep archive lookup",
];

/** What one run measured. */
interface Measured {
  /** The first `step-start`'s `t`. */
  firstTool: number;
  /** `plan-end`'s `t`. */
  planEnd: number;
  /** From the client's request to `run-end` in its hands. */
  end: number;
  /** Steps planned (`step-planned` events). */
  planSteps: number;
  /** `run-end`'s `usage.modelCalls`. */
  modelCalls: number;
  /** Durable runs: the Workflow steps the engine stored. */
  workflowSteps?: number;
  runId?: string;
}

/** The events of a Server-Sent Events body. */
async function readEvents(response: Response): Promise<{ type: string; [member: string]: unknown }[]> {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as { type: string; [member: string]: unknown });
}

/** Reads the figures of a run from its events. */
function measure(events: { type: string; [member: string]: unknown }[], end: number): Measured {
  const t = (type: string): number => Number(events.find((event) => event.type === type)?.["t"] ?? Number.NaN);
  const last = events.at(-1);
  if (last?.type !== "run-end") throw new Error(`the run did not end: ${JSON.stringify(last)}`);
  return {
    firstTool: t("step-start"),
    planEnd: t("plan-end"),
    end,
    planSteps: events.filter((event) => event.type === "step-planned").length,
    modelCalls: Number((last["usage"] as { modelCalls?: number } | undefined)?.modelCalls ?? Number.NaN),
  };
}

function post(server: WranglerDev, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function inMemory(server: WranglerDev, query: string): Promise<Measured> {
  const started = performance.now();
  const events = await readEvents(await post(server, "/v1/run", { query }));
  return measure(events, performance.now() - started);
}

async function durable(server: WranglerDev, query: string): Promise<Measured> {
  const started = performance.now();
  const created = await post(server, "/v1/runs", { query, durable: true });
  if (created.status !== 202) throw new Error(`POST /v1/runs answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const events = await readEvents(await fetch(`${server.url}/v1/runs/${id}/events`));
  return { ...measure(events, performance.now() - started), runId: id };
}

/** Waits until the instance of `runId` completed, so its storage holds every step. */
async function waitForCompletion(server: WranglerDev, runId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const report = (await (await fetch(`${server.url}/v1/runs/${runId}`)).json()) as { workflow?: { status: string } };
    if (report.workflow?.status === "complete") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the instance of ${runId} did not complete within 30 s`);
}

/**
 * The Workflow steps the local engine stored for each instance: the
 * distinct step names (`<name>-<occurrence>`) its storage records, keyed
 * by run id.
 */
async function storedSteps(persistTo: string): Promise<Map<string, number>> {
  const { DatabaseSync } = await import("node:sqlite");
  const counts = new Map<string, number>();
  const workflows = join(persistTo, "v3", "workflows");
  for (const folder of readdirSync(workflows)) {
    for (const file of readdirSync(join(workflows, folder))) {
      if (!file.endsWith(".sqlite") || file === "metadata.sqlite") continue;
      const database = new DatabaseSync(join(workflows, folder, file), { readOnly: true });
      try {
        const first = database.prepare("SELECT metadata FROM states ORDER BY id LIMIT 1").get() as
          | { metadata: string }
          | undefined;
        const runId = (JSON.parse(first?.metadata ?? "{}") as { params?: { runId?: string } }).params?.runId;
        const row = database
          .prepare("SELECT COUNT(DISTINCT target) AS steps FROM states WHERE target IS NOT NULL")
          .get() as { steps: number };
        if (runId !== undefined) counts.set(runId, row.steps);
      } finally {
        database.close();
      }
    }
  }
  return counts;
}

/**
 * Runs the benchmark.
 *
 * @returns the markdown section.
 */
export async function run(): Promise<string> {
  const repeats = 5;
  const persistTo = mkdtempSync(join(tmpdir(), "plankit-durable-bench-"));
  const server = await startWranglerDev(root, {
    args: ["--config", join(root, "test", "e2e", "fixture-worker", "wrangler.toml"), "--persist-to", persistTo],
  });
  const rows: string[][] = [];
  try {
    // Warm-up: the first requests compile and start the objects.
    await inMemory(server, requests[0] as string);
    await durable(server, requests[0] as string);
    const results: { query: string; memory: Measured[]; durable: Measured[] }[] = [];
    for (const query of requests) {
      const entry = { query, memory: [] as Measured[], durable: [] as Measured[] };
      for (let index = 0; index < repeats; index++) {
        entry.memory.push(await inMemory(server, query));
        entry.durable.push(await durable(server, query));
      }
      results.push(entry);
    }
    for (const entry of results)
      for (const measured of entry.durable) await waitForCompletion(server, measured.runId as string);
    const steps = await storedSteps(persistTo);
    for (const entry of results) {
      for (const measured of entry.durable) measured.workflowSteps = steps.get(measured.runId as string) ?? Number.NaN;
      const memoryEnd = median(entry.memory.map((measured) => measured.end));
      const cells = (list: Measured[]): string[] => [
        median(list.map((measured) => measured.firstTool)).toFixed(0),
        median(list.map((measured) => measured.planEnd)).toFixed(0),
        median(list.map((measured) => measured.end)).toFixed(0),
        (median(list.map((measured) => measured.end)) / memoryEnd).toFixed(2),
      ];
      const sample = entry.durable.at(-1);
      const bound = (sample?.planSteps ?? 0) + (sample?.modelCalls ?? 0) + 2;
      const stored = [...new Set(entry.durable.map((measured) => measured.workflowSteps ?? Number.NaN))].join(", ");
      rows.push([entry.query, "`/v1/run`", ...cells(entry.memory), "—"]);
      rows.push([entry.query, "durable `/v1/runs`", ...cells(entry.durable), `${stored} (≤ ${bound})`]);
    }
  } finally {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
  return [
    "## Durable runs under `wrangler dev`",
    "",
    `The demo's requests at the demo model's pace, each sent ${repeats} times through each path, alternately; medians, in ms. First tool and plan end are the events' \`t\` (from the run's start); run end is from the client's request to \`run-end\`, so a durable run's includes its \`POST /v1/runs\` and the events request. Workflow steps: what the local engine stored per instance (goal: plan steps + model calls + 2).`,
    "",
    formatTable(
      ["request", "path", "first tool starts", "plan ends", "run ends", "end vs `/v1/run`", "Workflow steps (goal)"],
      rows,
    ),
    "",
  ].join("\n");
}
