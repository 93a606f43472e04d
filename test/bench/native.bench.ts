/**
 * Native tool calls: the same simulated provider and tools run two ways —
 *
 * - plankit's `EagerAgent` (`ToolCallPlanner` + `AgentRuntime`):
 *   each read-only call starts the moment its arguments close;
 * - the AI SDK's own `ToolLoopAgent` (a `streamText` multi-step loop): the
 *   calls of a turn run after the model's turn ends.
 *
 * The provider is an AI SDK mock language model (`ai/test`) that streams at
 * a fixed pace (time to first token, tokens per second, 4 characters per
 * token), with tool calls as `tool-input-start` / `-delta` / `-end` parts,
 * then the whole `tool-call`; look-ups take 250 to 1000 ms, fixed per query.
 * Workloads: 8 independent look-ups in one turn,
 * then the answer; and 3 dependent turns (a look-up, a look-up that needs
 * its result, the answer). The ideal schedule starts each call the instant
 * its arguments closed and starts the next turn once the turn's stream and
 * its calls have all ended, measured on plankit's own runs.
 *
 * Then the same two agents with the real `@ai-sdk/openai` provider
 * (`.chat()`) over HTTP, against a local server that streams Chat
 * Completions chunks as OpenAI does: three parallel calls written one after
 * the other, their arguments closing at 240, 480 and 720 ms, the finish chunk
 * at 780 ms (the provider announces every call's end only then), and an
 * answer turn of 240 ms. The look-ups take 1000, 250 and 250 ms, the slow one
 * asked first, then asked last.
 *
 * @module
 */
import { createOpenAI } from "@ai-sdk/openai";
import { jsonSchema, stepCountIs, ToolLoopAgent, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { EagerAgent } from "../../src/ai.ts";
import {
  chatCallDelta,
  chatCallStart,
  chatChunk,
  chatEnd,
  type Frame,
  type OpenAIStreamServer,
  startOpenAIStreamServer,
} from "../ai/openai-stream-server.ts";
import { formatTable } from "./lib/format-table.ts";
import { median } from "./lib/median.ts";

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;
type Prompt = Parameters<MockLanguageModelV4["doStream"]>[0]["prompt"];

/** The provider's pace. */
const speed = { firstTokenMs: 300, tokensPerSecond: 100, charsPerToken: 4 };
/** A look-up's latency: 250 to 1000 ms, fixed per query (the same for both contenders). */
function lookupMs(q: string): number {
  let hash = 0;
  for (const char of q) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return 250 + (hash % 4) * 250;
}
/** Runs per cell; the median is reported. */
const runs = 5;

/** What a turn writes: calls (tool name and JSON arguments) and text. */
interface TurnScript {
  calls: { name: string; input: string }[];
  text: string;
}

/** A workload: what the model writes at each turn, given the results so far. */
interface Workload {
  name: string;
  turn(index: number, results: readonly string[]): TurnScript;
}

const cities = ["Paris", "Tokyo", "Lagos", "Lima", "Oslo", "Delhi", "Cairo", "Quito"];

const workloads: Workload[] = [
  {
    name: "8 parallel look-ups, then the answer",
    turn: (index) =>
      index === 0
        ? {
            calls: cities.map((city) => ({ name: "lookup", input: JSON.stringify({ q: `population of ${city}` }) })),
            text: "",
          }
        : {
            calls: [],
            text: `The populations are: ${cities.join(", ")} — see the figures above, all looked up just now.`,
          },
  },
  {
    name: "3 dependent turns",
    turn: (index, results) =>
      index === 0
        ? { calls: [{ name: "lookup", input: JSON.stringify({ q: "capital of France" }) }], text: "" }
        : index === 1
          ? {
              calls: [{ name: "lookup", input: JSON.stringify({ q: `population of ${results.at(-1) ?? "?"}` }) }],
              text: "",
            }
          : { calls: [], text: `The capital's population is ${results.at(-1) ?? "?"}, as looked up.` },
  },
];

/** The answer of the `lookup` tool. */
function lookup(q: string): string {
  return q === "capital of France" ? "Paris" : `${q.length * 104729}`;
}

/** Tool results in a prompt, in order (the mock needs them to write the next turn). */
function resultsIn(prompt: Prompt): string[] {
  const results: string[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      const value =
        output.type === "text" || output.type === "error-text"
          ? output.value
          : JSON.stringify(output.type === "json" ? output.value : null);
      results.push(value.replace(/^"|"$/g, ""));
    }
  }
  return results;
}

/** Timed events of one run, in ms since it started. */
interface Timeline {
  started: number;
  /** When each call's arguments closed, by tool-call id. */
  inputEnd: Map<string, number>;
  /** When each call's tool started, by the query it looked up. */
  toolStart: Map<string, number>;
  /** Call id → query, to pair the two. */
  queryOf: Map<string, string>;
  /** Each model turn: when the provider was called, when its stream ended, and when its calls' arguments closed and for how long they run. */
  turns: { calledAt: number; endedAt: number; calls: { inputEnd: number; runMs: number }[] }[];
  /** When each look-up ended. */
  toolEnd: Map<string, number>;
}

/** A mock provider streaming a workload's turns at `speed`, logging when each call's input ends. */
function createProvider(workload: Workload, timeline: Timeline): MockLanguageModelV4 {
  let callCount = 0;
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const turnTimes = {
        calledAt: performance.now() - timeline.started,
        endedAt: 0,
        calls: [] as { inputEnd: number; runMs: number }[],
      };
      timeline.turns.push(turnTimes);
      const results = resultsIn(prompt);
      const turnIndex = prompt.filter((message) => message.role === "assistant").length;
      const script = workload.turn(turnIndex, results);
      const tokenMs = 1000 / speed.tokensPerSecond;
      const chunks = (text: string): string[] => {
        const pieces: string[] = [];
        for (let offset = 0; offset < text.length; offset += speed.charsPerToken)
          pieces.push(text.slice(offset, offset + speed.charsPerToken));
        return pieces;
      };
      const stream = new ReadableStream<StreamPart>({
        async start(controller) {
          // Paced against the clock, not by relative sleeps, so a busy event loop does not slow the stream down.
          const origin = performance.now();
          let due = speed.firstTokenMs;
          const sleep = async (ms: number): Promise<void> => {
            due += ms;
            const wait = origin + due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          };
          controller.enqueue({ type: "stream-start", warnings: [] });
          await sleep(0);
          if (script.text !== "") {
            controller.enqueue({ type: "text-start", id: "t" });
            for (const piece of chunks(script.text)) {
              controller.enqueue({ type: "text-delta", id: "t", delta: piece });
              await sleep(tokenMs);
            }
            controller.enqueue({ type: "text-end", id: "t" });
          }
          for (const call of script.calls) {
            const id = `call_${++callCount}`;
            timeline.queryOf.set(id, (JSON.parse(call.input) as { q: string }).q);
            controller.enqueue({ type: "tool-input-start", id, toolName: call.name });
            for (const piece of chunks(call.input)) {
              await sleep(tokenMs);
              controller.enqueue({ type: "tool-input-delta", id, delta: piece });
            }
            timeline.inputEnd.set(id, performance.now() - timeline.started);
            turnTimes.calls.push({
              inputEnd: performance.now() - timeline.started,
              runMs: lookupMs((JSON.parse(call.input) as { q: string }).q),
            });
            controller.enqueue({ type: "tool-input-end", id });
            controller.enqueue({ type: "tool-call", toolCallId: id, toolName: call.name, input: call.input });
          }
          controller.enqueue({
            type: "finish",
            finishReason: { unified: script.calls.length > 0 ? "tool-calls" : "stop", raw: undefined },
            usage: {
              inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 50, text: 50, reasoning: undefined },
            },
          });
          turnTimes.endedAt = performance.now() - timeline.started;
          controller.close();
        },
      });
      return { stream };
    },
  });
}

/** The `lookup` tool for both contenders, logging when each call starts. */
function lookupTool(timeline: Timeline) {
  return tool({
    description: "Look a fact up",
    inputSchema: jsonSchema<{ q: string }>({
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
      additionalProperties: false,
    }),
    execute: async ({ q }) => {
      timeline.toolStart.set(q, performance.now() - timeline.started);
      await new Promise((resolve) => setTimeout(resolve, lookupMs(q)));
      timeline.toolEnd.set(q, performance.now() - timeline.started);
      return lookup(q);
    },
  });
}

/** One run's figures. */
interface Measured {
  totalMs: number;
  idealMs: number;
  /** Each call's lag from its arguments closing to its tool starting. */
  lagsMs: number[];
  text: string;
}

function freshTimeline(): Timeline {
  return {
    started: performance.now(),
    inputEnd: new Map(),
    toolStart: new Map(),
    queryOf: new Map(),
    turns: [],
    toolEnd: new Map(),
  };
}

function lagsOf(timeline: Timeline): number[] {
  return [...timeline.inputEnd].map(
    ([id, end]) => (timeline.toolStart.get(timeline.queryOf.get(id) ?? "") ?? Number.NaN) - end,
  );
}

async function runPlankit(workload: Workload): Promise<Measured> {
  const timeline = freshTimeline();
  const agent = new EagerAgent({
    model: createProvider(workload, timeline),
    tools: { lookup: lookupTool(timeline) },
    annotations: { lookup: { readOnlyHint: true } },
  });
  const { text, state } = await agent.generate({ prompt: `Run: ${workload.name}` });
  if (state.reason !== "completed")
    throw new Error(`plankit run ended with ${state.reason}: ${JSON.stringify(state.error)}`);
  return { totalMs: performance.now() - timeline.started, idealMs: idealOf(timeline), lagsMs: lagsOf(timeline), text };
}

async function runAiSdk(workload: Workload): Promise<Measured> {
  const timeline = freshTimeline();
  const agent = new ToolLoopAgent({
    model: createProvider(workload, timeline),
    tools: { lookup: lookupTool(timeline) },
    stopWhen: stepCountIs(8),
  });
  const result = await agent.stream({ prompt: `Run: ${workload.name}` });
  const text = await result.text;
  return { totalMs: performance.now() - timeline.started, idealMs: idealOf(timeline), lagsMs: lagsOf(timeline), text };
}

/**
 * The ideal schedule of one run, from its own measured model streams (so the
 * provider's timer drift counts for neither side): each turn's stream as it
 * took, each call running its look-up time from the instant its arguments
 * closed, and the next turn called the instant the stream and the calls
 * ended.
 *
 * @param timeline - the run's timeline.
 * @returns the ideal end, in ms.
 */
function idealOf(timeline: Timeline): number {
  let total = 0;
  for (const turn of timeline.turns) {
    const streamEnd = turn.endedAt - turn.calledAt;
    const callsEnd = Math.max(0, ...turn.calls.map((call) => call.inputEnd - turn.calledAt + call.runMs));
    total += Math.max(streamEnd, callsEnd);
  }
  return total;
}

// ── over HTTP with the real OpenAI provider ──────────────────────────────

/** When the three calls' arguments close and the turn ends, in ms after the answer began. */
const httpTurn = { closesAtMs: [240, 480, 720], endsAtMs: 780, answerMs: 240 };

/** An HTTP workload: the look-up time of each of the three calls, in the order the model writes them. */
interface HttpWorkload {
  name: string;
  lookupMs: readonly number[];
}

const httpWorkloads: HttpWorkload[] = [
  { name: "slow look-up asked first (1000, 250, 250 ms)", lookupMs: [1000, 250, 250] },
  { name: "slow look-up asked last (250, 250, 1000 ms)", lookupMs: [250, 250, 1000] },
];

const httpCities = ["Paris", "Tokyo", "Lagos"];

/** One HTTP run's figures, in ms since it started. */
interface HttpMeasured {
  totalMs: number;
  /** When the server wrote the first turn's finish chunk. */
  turnEndMs: number;
  /** When each look-up started, in call order. */
  toolStartsMs: number[];
}

/**
 * The frames of one answer: the three calls, paced to close at `httpTurn.closesAtMs`, or the answer text.
 *
 * @param answering - whether the request carries the tool results.
 * @param onTurnEnd - called as the finish chunk is written.
 * @returns the frames.
 */
function httpFrames(answering: boolean, onTurnEnd: () => void): Frame[] {
  if (answering) {
    const text = "Paris, Tokyo and Lagos: looked up.";
    const pieces = text.match(/.{1,4}/gu) ?? [];
    return [
      chatChunk({ role: "assistant", content: "" }),
      ...pieces.flatMap((piece, index): Frame[] => [
        { atMs: ((index + 1) * httpTurn.answerMs) / pieces.length },
        chatChunk({ content: piece }),
      ]),
      ...chatEnd("stop"),
    ];
  }
  const frames: Frame[] = [chatChunk({ role: "assistant", content: "" })];
  for (const [index, city] of httpCities.entries()) {
    const call = { id: `call_${index}`, name: "lookup", arguments: JSON.stringify({ q: `population of ${city}` }) };
    const pieces = call.arguments.match(/.{1,4}/gsu) ?? [];
    const from = index === 0 ? 0 : (httpTurn.closesAtMs[index - 1] ?? 0);
    const to = httpTurn.closesAtMs[index] ?? 0;
    frames.push(chatCallStart(index, call));
    for (const [position, piece] of pieces.entries())
      frames.push({ atMs: from + ((position + 1) * (to - from)) / pieces.length }, chatCallDelta(index, piece));
  }
  frames.push({ atMs: httpTurn.endsAtMs }, { wait: async () => onTurnEnd() }, ...chatEnd("tool_calls"));
  return frames;
}

/** The `lookup` tool of an HTTP run: its time per query from the workload, its start logged. */
function httpLookup(workload: HttpWorkload, started: number, starts: number[]) {
  return tool({
    description: "Look a fact up",
    inputSchema: jsonSchema<{ q: string }>({
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
      additionalProperties: false,
    }),
    execute: async ({ q }) => {
      const index = httpCities.findIndex((city) => q.endsWith(city));
      starts[index] = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, workload.lookupMs[index] ?? 0));
      return `${q.length * 104729}`;
    },
  });
}

async function runHttp(
  server: OpenAIStreamServer,
  workload: HttpWorkload,
  contender: "plankit" | "ai-sdk",
): Promise<HttpMeasured> {
  const started = performance.now();
  let turnEndMs = Number.NaN;
  server.respond = (request) => {
    const answering = (request.body["messages"] as { role: string }[]).some((message) => message.role === "tool");
    return httpFrames(answering, () => {
      turnEndMs = performance.now() - started;
    });
  };
  const starts: number[] = [];
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: "sk-local" }).chat("local-model");
  const lookup = httpLookup(workload, started, starts);
  let text: string;
  if (contender === "plankit") {
    const agent = new EagerAgent({ model, tools: { lookup }, annotations: { lookup: { readOnlyHint: true } } });
    const result = await agent.generate({ prompt: "Populations of Paris, Tokyo and Lagos?" });
    if (result.state.reason !== "completed")
      throw new Error(`plankit run ended with ${result.state.reason}: ${JSON.stringify(result.state.error)}`);
    text = result.text;
  } else {
    const agent = new ToolLoopAgent({ model, tools: { lookup }, stopWhen: stepCountIs(8) });
    text = await (await agent.stream({ prompt: "Populations of Paris, Tokyo and Lagos?" })).text;
  }
  if (text !== "Paris, Tokyo and Lagos: looked up.") throw new Error(`${contender} answered ${JSON.stringify(text)}`);
  return { totalMs: performance.now() - started, turnEndMs, toolStartsMs: starts };
}

/**
 * Runs both agents over HTTP.
 *
 * @returns the markdown lines.
 */
async function runOverHttp(): Promise<string[]> {
  const server = await startOpenAIStreamServer();
  const rows: string[][] = [];
  try {
    for (const workload of httpWorkloads) {
      const plankit: HttpMeasured[] = [];
      const aiSdk: HttpMeasured[] = [];
      for (let index = 0; index < runs; index++) {
        console.error(`  native over HTTP: ${workload.name}, run ${index + 1}/${runs}`);
        plankit.push(await runHttp(server, workload, "plankit"));
        aiSdk.push(await runHttp(server, workload, "ai-sdk"));
      }
      // How long before the end of the turn each run's first look-up started (negative: after it).
      const lead = (entries: HttpMeasured[]): number =>
        median(entries.map((entry) => entry.turnEndMs - Math.min(...entry.toolStartsMs)));
      const ours = median(plankit.map((entry) => entry.totalMs));
      const theirs = median(aiSdk.map((entry) => entry.totalMs));
      const starts = (entries: HttpMeasured[]): string =>
        [0, 1, 2]
          .map((call) => median(entries.map((entry) => entry.toolStartsMs[call] ?? Number.NaN)).toFixed(0))
          .join(" / ");
      // Each look-up started the instant its arguments closed, the answer turn the instant the turn and the look-ups ended.
      const ideal =
        Math.max(httpTurn.endsAtMs, ...workload.lookupMs.map((ms, call) => (httpTurn.closesAtMs[call] ?? 0) + ms)) +
        httpTurn.answerMs;
      rows.push([
        workload.name,
        ideal.toFixed(0),
        starts(plankit),
        lead(plankit).toFixed(0),
        ours.toFixed(0),
        starts(aiSdk),
        lead(aiSdk).toFixed(0),
        theirs.toFixed(0),
        `${(theirs / ours).toFixed(2)}x`,
      ]);
    }
  } finally {
    await server.close();
  }
  return [
    "### Over HTTP: the real `@ai-sdk/openai` provider (`.chat()`)",
    "",
    `A local server streams Chat Completions chunks: three parallel calls whose arguments close at ${httpTurn.closesAtMs.join(", ")} ms, the finish chunk at ${httpTurn.endsAtMs} ms (the provider ends every call only then), an answer turn of ${httpTurn.answerMs} ms; median of ${runs} runs. "Starts" are the three look-ups' start times, "lead" how long before the finish chunk the first one started; the ideal starts each look-up the instant its arguments close and the answer turn the instant the look-ups and the turn ended.`,
    "",
    formatTable(
      [
        "workload",
        "ideal ms",
        "plankit starts ms",
        "plankit lead ms",
        "plankit ms",
        "AI SDK starts ms",
        "AI SDK lead ms",
        "AI SDK ms",
        "AI SDK / plankit",
      ],
      rows,
    ),
    "",
  ];
}

/**
 * Runs the benchmark.
 *
 * @returns the markdown section.
 */
export async function run(): Promise<string> {
  const rows: string[][] = [];
  const lagRows: string[][] = [];
  for (const workload of workloads) {
    const plankit: Measured[] = [];
    const aiSdk: Measured[] = [];
    for (let index = 0; index < runs; index++) {
      console.error(`  native: ${workload.name}, run ${index + 1}/${runs}`);
      plankit.push(await runPlankit(workload));
      aiSdk.push(await runAiSdk(workload));
    }
    if (plankit[0]?.text !== aiSdk[0]?.text)
      throw new Error(
        `The answers differ: plankit ${JSON.stringify(plankit[0]?.text)} vs AI SDK ${JSON.stringify(aiSdk[0]?.text)}`,
      );
    const ideal = median(plankit.map((entry) => entry.idealMs));
    const ours = median(plankit.map((entry) => entry.totalMs));
    const theirs = median(aiSdk.map((entry) => entry.totalMs));
    rows.push([
      workload.name,
      ideal.toFixed(0),
      ours.toFixed(0),
      `${(((ours - ideal) / ideal) * 100).toFixed(1)}%`,
      theirs.toFixed(0),
      `${(theirs / ours).toFixed(2)}x`,
    ]);
    const ourLags = plankit.flatMap((entry) => entry.lagsMs).sort((a, b) => a - b);
    const theirLags = aiSdk.flatMap((entry) => entry.lagsMs).sort((a, b) => a - b);
    const p95 = (values: number[]): number =>
      values[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? Number.NaN;
    lagRows.push([
      workload.name,
      median(ourLags).toFixed(2),
      p95(ourLags).toFixed(2),
      median(theirLags).toFixed(1),
      p95(theirLags).toFixed(1),
      String(ourLags.length),
    ]);
  }
  return [
    "## Native tool calls: plankit EagerAgent vs the AI SDK's ToolLoopAgent",
    "",
    `Same AI SDK mock provider for both (first token ${speed.firstTokenMs} ms, ${speed.tokensPerSecond} tokens/s, ${speed.charsPerToken} characters per token, calls streamed as input deltas), look-ups of 250 to 1000 ms (fixed per query); median of ${runs} runs. The ideal is measured on plankit's runs.`,
    "",
    formatTable(["workload", "ideal ms", "plankit ms", "plankit vs ideal", "AI SDK ms", "AI SDK / plankit"], rows),
    "",
    "Time from a call's arguments closing to its tool starting (ms):",
    "",
    formatTable(["workload", "plankit median", "plankit p95", "AI SDK median", "AI SDK p95", "calls"], lagRows),
    "",
    ...(await runOverHttp()),
  ].join("\n");
}
