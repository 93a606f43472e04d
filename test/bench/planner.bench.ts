/**
 * The planner: how much earlier a streamed plan's steps are available than
 * a plan parsed once the answer is complete (the whole text parsed at
 * once), at realistic model speeds; and the planner's own CPU cost per plan.
 *
 * @module
 */

import { LLMPlanner, type PlanStep } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import { formatTable } from "./lib/format-table.ts";
import { median } from "./lib/median.ts";
import { timeRun } from "./lib/time-run.ts";

const tools = [
  {
    name: "web_search",
    description: "Search the web",
    inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    annotations: { readOnlyHint: true },
  },
  {
    name: "fetch_page",
    description: "Fetch a web page",
    inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    annotations: { readOnlyHint: true },
  },
  {
    name: "calculator",
    description: "Do arithmetic",
    inputSchema: { type: "object", properties: { expr: { type: "string" } }, required: ["expr"] },
    annotations: { readOnlyHint: true },
  },
];

/** A six-step plan as a model writes it: pretty-printed, one step per line. */
const plan: unknown[] = [
  { id: "s1", type: "tool", name: "web_search", arguments: { query: "population of Tokyo 2024" } },
  { id: "s2", type: "tool", name: "web_search", arguments: { query: "population of Osaka 2024" } },
  { id: "s3", type: "tool", name: "fetch_page", arguments: { url: "{{s1.results.0.url}}" } },
  { id: "s4", type: "tool", name: "fetch_page", arguments: { url: "{{s2.results.0.url}}" } },
  { id: "s5", type: "llm", prompt: "Extract both populations from {{s3}} and {{s4}} and compute their ratio." },
  { id: "s6", type: "reply", text: "Tokyo has {{s5}} times the population of Osaka." },
];
const answer = `[\n${plan.map((step) => `  ${JSON.stringify(step)}`).join(",\n")}\n]`;

/**
 * Plans once with real timers and records when each step event arrived.
 *
 * @param tokensPerSecond - the model's speed.
 * @param firstTokenMs - its time to first token.
 * @returns milliseconds to the first step, to the last tool step, and to `done`.
 */
async function timeline(
  tokensPerSecond: number,
  firstTokenMs: number,
): Promise<{ first: number; lastTool: number; done: number }> {
  const model = createScriptedModel({ responses: [answer], tokensPerSecond, firstTokenMs });
  const planner = new LLMPlanner({ model });
  const started = performance.now();
  let first = Number.NaN;
  let lastTool = Number.NaN;
  let done = Number.NaN;
  let steps: PlanStep[] = [];
  for await (const event of planner.stream({ query: "Compare the populations of Tokyo and Osaka", tools })) {
    const now = performance.now() - started;
    if (event.type === "step") {
      if (Number.isNaN(first)) first = now;
      if (event.step.type !== "reply") lastTool = now;
    } else if (event.type === "done") {
      done = now;
      steps = event.steps;
    }
  }
  if (steps.length !== plan.length) throw new Error(`the planner accepted ${steps.length} of ${plan.length} steps`);
  return { first, lastTool, done };
}

/**
 * Runs the benchmark.
 *
 * @returns the markdown section.
 */
export async function run(): Promise<string> {
  const tokens = Math.ceil(answer.length / 4);
  const speeds: [number, number][] = [
    [30, 600],
    [80, 400],
    [200, 250],
  ];
  const rows: string[][] = [];
  for (const [tokensPerSecond, firstTokenMs] of speeds) {
    const { first, lastTool, done } = await timeline(tokensPerSecond, firstTokenMs);
    rows.push([
      `${tokensPerSecond} tok/s, first token ${firstTokenMs} ms`,
      `${first.toFixed(0)} ms`,
      `${lastTool.toFixed(0)} ms`,
      `${done.toFixed(0)} ms`,
      `${(done - first).toFixed(0)} ms`,
    ]);
  }
  const timing = formatTable(
    [
      "model (answer of ~" + String(tokens) + " tokens)",
      "first step",
      "last tool step",
      "whole plan (= parse at end)",
      "head start of step 1",
    ],
    rows,
  );

  // CPU cost: an instant model, so the time is the planner's parsing, validation and events.
  const fast = new LLMPlanner({ model: createScriptedModel({ responses: () => answer, tokensPerSecond: Infinity }) });
  for (let warm = 0; warm < 50; warm++) await fast.plan({ query: "Compare the populations of Tokyo and Osaka", tools });
  const samples: number[] = [];
  for (let round = 0; round < 15; round++) {
    samples.push(
      (await timeRun(async () => {
        for (let index = 0; index < 100; index++)
          await fast.plan({ query: "Compare the populations of Tokyo and Osaka", tools });
      })) / 100,
    );
  }
  const cost = formatTable(
    ["planner overhead (6 steps, 4-char chunks, instant model)", "per plan"],
    [["median of 15 × 100 plans", `${(median(samples) * 1000).toFixed(0)} µs`]],
  );

  return [
    "## Planner streaming",
    "",
    "A six-step plan streamed by `createScriptedModel` with real timers. A step is usable the moment its JSON closes; parsing only the finished answer makes every step wait for the last token.",
    "",
    timing,
    "",
    cost,
    "",
  ].join("\n");
}
