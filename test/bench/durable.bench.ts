/**
 * Durable runs: what running a plan on Workflow steps costs over the same run in memory, and what a replay after a restart costs.
 *
 * The workload is eight parallel read-only lookups (20 ms each), one that
 * fails once and is retried after the model's reflection, a side-effecting
 * `send`, and an answer the model integrates; the plan streams one step every
 * 15 ms, as a model writes it. It runs in memory
 * (`AgentRuntime`) and through `executeDurableRun` on an in-process stand-in
 * for the Workflows engine that stores each step's value after a
 * configurable write latency, with a session log whose appends take 2 ms.
 * A replay runs the same instance again with every step stored, as the
 * engine does after a restart: no tool or model call, only the runtime's
 * decisions and the log's (deduplicated) appends. Each run reports when the
 * first tool started and when the plan ended (from the run's start), its
 * end, and the Workflow steps it stored. The real engine's
 * latencies differ; this measures plankit's own overhead. The module
 * imports the Worker's run code, so `test/tsconfig.workerd.json` checks it
 * with the Workers types.
 *
 * @module
 */
import { AgentRuntime, type PlanStep, type ToolDefinition, ToolRegistry } from "../../src/index.ts";
import type { RunSetup } from "../../worker/runs/create-run-setup.ts";
import type { DurableStep } from "../../worker/runs/durable-step.ts";
import { executeDurableRun } from "../../worker/runs/execute-durable-run.ts";
import { workerDefaults } from "../../worker/worker-defaults.ts";
import { createEchoModel, createFakePlanner, reply, tool } from "../runtime/fake-planner.ts";
import { formatTable } from "./lib/format-table.ts";
import { median } from "./lib/median.ts";

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The plan: eight lookups, a flaky step over the first, a send over all, and a reply the model integrates (its reference cannot be resolved). */
const plan: PlanStep[] = [
  ...Array.from({ length: 8 }, (_, index) => tool(`l${index}`, "lookup", { q: `item ${index}` })),
  tool("f", "flaky", { q: "{{l0.value}}" }, { retries: 0 }),
  tool("s", "send", { to: "{{f.value}}" }),
  reply("r", "{{s.missing}}"),
];

/** How long the model takes to write each step of the plan. */
const stepDelayMs = 15;

/** The run's clock: when the first tool started. */
interface Timing {
  firstTool?: number;
}

function createTools(timing: Timing = {}): { registry: ToolRegistry; calls: () => number } {
  let calls = 0;
  let flaky = 0;
  const tools: ToolDefinition[] = [
    {
      name: "lookup",
      description: "Look up",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
      annotations: { readOnlyHint: true },
      execute: async ({ q }) => {
        calls++;
        timing.firstTool ??= performance.now();
        await wait(20);
        return { value: `${String(q)}!` };
      },
    },
    {
      name: "flaky",
      description: "Fails once",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
      annotations: { readOnlyHint: true },
      execute: ({ q }) => {
        calls++;
        if (++flaky === 1) throw new Error("busy");
        return { value: String(q) };
      },
    },
    {
      name: "send",
      description: "Send",
      inputSchema: { type: "object", properties: { to: { type: "string" } } },
      execute: async ({ to }) => (calls++, await wait(10), { sent: to }),
    },
  ];
  return { registry: new ToolRegistry().register(tools), calls: () => calls };
}

function createModel() {
  return createEchoModel((request) =>
    request.purpose === "reflect" ? '{"action":"retry","reason":"busy"}' : "The answer.",
  );
}

/** An in-process engine: stores each step's value (by name and occurrence) after `writeMs`. */
function createEngine(writeMs: number) {
  const stored = new Map<string, unknown>();
  let steps = 0;
  return {
    stored,
    steps: () => steps,
    execution(): DurableStep {
      const counts = new Map<string, number>();
      return {
        async do(name, config, callback) {
          const count = (counts.get(name) ?? 0) + 1;
          counts.set(name, count);
          const key = `${name}/${count}`;
          if (stored.has(key)) return stored.get(key) as never;
          for (let attempt = 1; ; attempt++) {
            try {
              const value = await callback({ attempt });
              await wait(writeMs);
              stored.set(key, value);
              steps++;
              return value;
            } catch (error) {
              if (attempt > (config.retries?.limit ?? 0)) throw error;
            }
          }
        },
        waitForEvent: () => Promise.reject(new Error("no waits in this benchmark")),
      };
    },
  };
}

/** A session whose log appends and start claims take 2 ms each. */
function createSession() {
  let appends = 0;
  const claimed = new Set<string>();
  return {
    claimStart: async (runId: string, key: string) => {
      await wait(2);
      if (claimed.has(`${runId} ${key}`)) return false;
      claimed.add(`${runId} ${key}`);
      return true;
    },
    appends: () => appends,
    append: async () => {
      appends++;
      await wait(2);
    },
    readMemory: async () => [],
    writeMemory: async () => undefined,
  };
}

/** One run's times from its start, in ms. */
interface Times {
  firstTool: number;
  planEnd: number;
  end: number;
}

function timesOf(started: number, timing: Timing, planner: { log: { endedAt: number | undefined } }, ended: number) {
  return {
    firstTool: (timing.firstTool ?? Number.NaN) - started,
    planEnd: (planner.log.endedAt ?? Number.NaN) - started,
    end: ended - started,
  };
}

async function inMemory(): Promise<Times> {
  const timing: Timing = {};
  const { registry } = createTools(timing);
  const planner = createFakePlanner({ steps: plan, stepDelayMs });
  const runtime = new AgentRuntime({
    maxConcurrency: 8,
    timeoutMs: 20_000,
    planner,
    registry,
    model: createModel(),
    budget: workerDefaults.durableBudget,
    memory: false,
  });
  const started = performance.now();
  await runtime.run("go").done;
  return timesOf(started, timing, planner, performance.now());
}

async function durable(
  writeMs: number,
): Promise<Times & { replay: number; steps: number; modelCalls: number; replayCalls: number; replayModel: number }> {
  const timing: Timing = {};
  const { registry, calls } = createTools(timing);
  const model = createModel();
  const engine = createEngine(writeMs);
  const planner = createFakePlanner({ steps: plan, stepDelayMs });
  const setup: RunSetup = { registry, planner, model, selected: { model, name: "echo", provider: "bench" } };
  const params = { runId: "run_bench", session: "bench", query: "go", engine: 3 as const };
  const session = createSession();
  let started = performance.now();
  await executeDurableRun({ params, step: engine.execution(), session, setup });
  const first = timesOf(started, timing, planner, performance.now());
  const toolCalls = calls();
  const modelCalls = model.requests.length;
  started = performance.now();
  await executeDurableRun({ params, step: engine.execution(), session, setup });
  return {
    ...first,
    replay: performance.now() - started,
    steps: engine.steps(),
    modelCalls,
    replayCalls: calls() - toolCalls,
    replayModel: model.requests.length - modelCalls,
  };
}

/**
 * Runs the benchmark.
 *
 * @returns the markdown section.
 */
export async function run(): Promise<string> {
  const repeats = 7;
  const memory: Times[] = [];
  for (let index = 0; index < repeats; index++) memory.push(await inMemory());
  const cells = (times: readonly Times[]): string[] => [
    median(times.map((time) => time.firstTool)).toFixed(1),
    median(times.map((time) => time.planEnd)).toFixed(1),
    median(times.map((time) => time.end)).toFixed(1),
  ];
  const memoryEnd = median(memory.map((time) => time.end));
  const rows: string[][] = [["in memory (`AgentRuntime`)", ...cells(memory), "1.00", "—", "—", "—"]];
  for (const writeMs of [0, 5]) {
    const results = [];
    for (let index = 0; index < repeats; index++) results.push(await durable(writeMs));
    const last = results.at(-1);
    // The goal: at most the plan's steps, the model calls and two more (the start and the plan).
    const bound = plan.length + (last?.modelCalls ?? 0) + 2;
    rows.push([
      `durable, step writes ${writeMs} ms`,
      ...cells(results),
      (median(results.map((result) => result.end)) / memoryEnd).toFixed(2),
      median(results.map((result) => result.replay)).toFixed(1),
      `${last?.steps ?? 0} (≤ ${bound})`,
      `${last?.replayCalls ?? 0} / ${last?.replayModel ?? 0}`,
    ]);
  }
  return [
    "## Durable runs",
    "",
    `Eight parallel 20 ms lookups, a step retried after reflection, a 10 ms side-effecting send and an integrated answer; the plan streams a step every ${stepDelayMs} ms; medians of ${repeats} runs, in ms from the run's start.`,
    "",
    formatTable(
      [
        "run",
        "first tool starts",
        "plan ends",
        "run ends",
        "end vs memory",
        "replay, all stored",
        "steps stored (goal)",
        "tool / model calls on replay",
      ],
      rows,
    ),
    "",
  ].join("\n");
}
