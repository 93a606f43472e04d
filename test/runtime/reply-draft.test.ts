/**
 * The reply streamed while the model writes it (`replyStreaming: "early"`
 * with a planner that reports drafts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replay } from "../../src/events/replay.ts";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanModel, PlanModelRequest } from "../../src/model/plan-model.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import type { Planner } from "../../src/planner/planner.ts";
import type { PlannerEvent } from "../../src/planner/planner-event.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, deferred, invariantProblems } from "./fake-planner.ts";

const quiet = { memory: false, reflector: noOpReflector, retries: 0, integrate: "template" } as const;

/** The deltas of a run, in order. */
function deltasOf(events: readonly RuntimeEvent[]): string[] {
  return events.flatMap((event) => (event.type === "reply-delta" ? [event.delta] : []));
}

/** The index of the first event matching `predicate`. */
function indexOf(events: readonly RuntimeEvent[], predicate: (event: RuntimeEvent) => boolean): number {
  return events.findIndex(predicate);
}

/** Waits until the run has emitted an event matching `predicate`. */
async function until(events: readonly RuntimeEvent[], predicate: (event: RuntimeEvent) => boolean): Promise<void> {
  for (let tries = 0; tries < 500 && !events.some(predicate); tries++)
    await new Promise((resolve) => setTimeout(resolve, 1));
  if (!events.some(predicate)) throw new Error("the event never came");
}

/**
 * A model whose planning call writes `chunks` one by one; a chunk that is a
 * promise is waited for (the test decides when the model goes on). Other
 * calls (repair, re-plan) answer with `others(request)`.
 */
function chunkedModel(
  chunks: readonly (string | Promise<unknown>)[],
  others: (request: PlanModelRequest) => string = () => "[]",
): PlanModel & { purposes: string[] } {
  const purposes: string[] = [];
  return {
    purposes,
    async *stream(request) {
      purposes.push(request.purpose ?? "");
      if (request.purpose !== "plan") {
        yield { type: "text", text: others(request) };
      } else {
        for (const chunk of chunks) {
          if (typeof chunk === "string") yield { type: "text", text: chunk };
          else await chunk;
        }
      }
      yield { type: "finish", reason: "stop" };
    },
  };
}

function registryOf(execute: () => unknown): ToolRegistry {
  return new ToolRegistry().register([
    { name: "a", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute },
  ]);
}

describe("a reply streamed as the model writes it", () => {
  it("writes literal text and the references of ended steps before the plan ends, and equals the reply", async () => {
    const ended = deferred<unknown>();
    const more = deferred<unknown>();
    const model = chunkedModel([
      '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
      ended.promise,
      '{"id":"s2","type":"reply","text":"Got ',
      "{{s1.x",
      "}} and",
      " more",
      more.promise,
      '."}]',
    ]);
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry: registryOf(() => ({ x: "A" })),
      ...quiet,
      replyStreaming: "early",
    }).run("go");
    await until(run.events, (event) => event.type === "step-end" && event.stepId === "s1");
    ended.resolve(undefined);
    await until(run.events, (event) => event.type === "reply-delta" && event.delta === " more");
    // The model has not finished the reply: the plan is still being written.
    expect(run.events.some((event) => event.type === "plan-end")).toBe(false);
    expect(deltasOf(run.events)).toEqual(["Got ", "A and", " more"]);
    more.resolve(undefined);
    const state = await run.done;
    expect(deltasOf(run.events)).toEqual(["Got ", "A and", " more", "."]);
    expect(state.reply).toEqual({ text: "Got A and more.", source: "step", stepId: "s2" });
    expect(invariantProblems(run.events)).toEqual([]);
    expect(replay(JSON.parse(JSON.stringify(run.events)) as RuntimeEvent[])).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('"early" waits at a reference whose step runs; "safe" waits for the whole reply', async () => {
    const gate = deferred<unknown>();
    const text = [
      '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
      '{"id":"s2","type":"reply","text":"Got ',
      '{{s1.x}} now."}]',
    ];
    const early = new AgentRuntime({
      planner: new LLMPlanner({ model: chunkedModel(text) }),
      registry: registryOf(() => gate.promise),
      ...quiet,
      replyStreaming: "early",
    }).run("go");
    await until(early.events, (event) => event.type === "plan-end");
    expect(deltasOf(early.events)).toEqual(["Got "]);
    gate.resolve({ x: 7 });
    expect((await early.done).reply?.text).toBe("Got 7 now.");
    expect(deltasOf(early.events)).toEqual(["Got ", "7 now."]);

    // "safe" does not start while a step runs: it may still fail, and a re-plan replace the reply.
    const running = deferred<unknown>();
    const safeRun = new AgentRuntime({
      planner: new LLMPlanner({ model: chunkedModel(text) }),
      registry: registryOf(() => running.promise),
      ...quiet,
    }).run("go");
    await until(safeRun.events, (event) => event.type === "plan-end");
    expect(deltasOf(safeRun.events)).toEqual([]);
    running.resolve({ x: 7 });
    await safeRun.done;
    expect(deltasOf(safeRun.events)).toEqual(["Got 7 now."]);
  });

  it('"safe" streams the draft once every other step has succeeded, and keeps re-plans for a step that fails first', async () => {
    const ended = deferred<unknown>();
    const chunks = [
      '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
      ended.promise,
      '{"id":"s2","type":"reply","text":"Got ',
      "{{s1.x}} now",
      '."}]',
    ];
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model: chunkedModel(chunks) }),
      registry: registryOf(() => ({ x: 7 })),
      ...quiet,
    }).run("go");
    await until(run.events, (event) => event.type === "step-end" && event.stepId === "s1");
    ended.resolve(undefined);
    const events = await collect(run);
    expect(deltasOf(events)).toEqual(["Got ", "7 now", "."]);
    expect(indexOf(events, (event) => event.type === "reply-delta")).toBeLessThan(
      indexOf(events, (event) => event.type === "plan-end"),
    );
    expect(invariantProblems(events)).toEqual([]);

    const failed = deferred<unknown>();
    const model = chunkedModel(
      [
        '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
        failed.promise,
        '{"id":"s2","type":"reply","text":"Got ',
        '{{s1.x}}."}]',
      ],
      () => '[{"id":"r1","type":"reply","text":"Re-planned."}]',
    );
    const failing = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry: registryOf(() => Promise.reject(new Error("down"))),
      ...quiet,
    }).run("go");
    await until(failing.events, (event) => event.type === "step-error");
    failed.resolve(undefined);
    const state = await failing.done;
    expect(model.purposes).toEqual(["plan", "replan"]);
    expect(state.reply?.text).toBe("Re-planned.");
    expect(deltasOf(failing.events)).toEqual(["Re-planned."]);
  });

  it("holds back a reply that may still be one reference, and a reference or a surrogate pair cut in two", async () => {
    const exact = await collect(
      new AgentRuntime({
        planner: new LLMPlanner({
          model: chunkedModel([
            '[{"id":"s1","type":"tool","name":"a","arguments":{}},{"id":"s2","type":"reply","text":"{{s1',
            '}}"}]',
          ]),
        }),
        registry: registryOf(() => ({ x: 1 })),
        ...quiet,
        replyStreaming: "early",
      }).run("go"),
    );
    // Exactly one reference: the value itself, written once whole.
    expect(deltasOf(exact)).toEqual(['{"x":1}']);
    const cut = await collect(
      new AgentRuntime({
        planner: new LLMPlanner({
          model: chunkedModel([
            '[{"id":"s1","type":"tool","name":"a","arguments":{}},{"id":"s2","type":"reply","text":"x {',
            "{s1.x}} \ud83d",
            '\ude00!"}]',
          ]),
        }),
        registry: registryOf(() => ({ x: 1 })),
        ...quiet,
        replyStreaming: "early",
      }).run("go"),
    );
    expect(deltasOf(cut)).toEqual(["x ", "1 ", "\ud83d\ude00!"]);
  });

  it("fixes the plan once it streams: a step failing later is a note, not a re-plan", async () => {
    const gate = deferred<unknown>();
    const model = chunkedModel(
      [
        '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
        '{"id":"s2","type":"reply","text":"Got ',
        '{{s1.x}}."}]',
      ],
      () => '[{"id":"r1","type":"reply","text":"re-planned"}]',
    );
    const registry = registryOf(() => gate.promise.then(() => Promise.reject(new Error("down"))));
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry,
      ...quiet,
      replyStreaming: "early",
    }).run("go");
    await until(run.events, (event) => event.type === "reply-delta");
    gate.resolve(undefined);
    const state = await run.done;
    expect(model.purposes).toEqual(["plan"]);
    expect(state.reply).toEqual({ text: 'Got [step "s1" failed].', source: "step", stepId: "s2" });
    expect(deltasOf(run.events).join("")).toBe(state.reply?.text);
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("keeps what was written when the reply step is dropped and a repair writes another", async () => {
    const model = chunkedModel(
      [
        '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
        '{"id":"s2","type":"reply","text":"Got {{s1.x}}, ',
        'see {{s9}}."}]',
      ],
      () => '[{"id":"s2","type":"reply","text":"Other"}]',
    );
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry: registryOf(() => ({ x: "A" })),
      ...quiet,
      replyStreaming: "early",
    }).run("go");
    const events = await collect(run);
    expect(model.purposes).toEqual(["plan", "repair"]);
    // What was streamed cannot be taken back: the answer is the draft, its unknown reference as written.
    expect(run.state.reply).toEqual({ text: "Got A, see {{s9}}.", source: "step", stepId: "s2" });
    expect(deltasOf(events).join("")).toBe("Got A, see {{s9}}.");
    expect(invariantProblems(events)).toEqual([]);
  });

  it("does not start when a step of the plan was dropped before the reply (a repair is coming)", async () => {
    const model = chunkedModel(
      ['[{"id":"s1","type":"tool","name":"nope","arguments":{}},', '{"id":"s2","type":"reply","text":"Got ', 'it."}]'],
      () => '[{"id":"s3","type":"reply","text":"Repaired."}]',
    );
    const events = await collect(
      new AgentRuntime({
        planner: new LLMPlanner({ model }),
        registry: registryOf(() => ({ x: 1 })),
        ...quiet,
        replyStreaming: "early",
      }).run("go"),
    );
    expect(deltasOf(events)).toEqual(["Repaired."]);
  });

  it("gives the same answer as the whole reply, however the model's text is cut", async () => {
    const plan =
      '[{"id":"s1","type":"tool","name":"a","arguments":{}},{"id":"s2","type":"reply","text":"{{s1.x}} is {{ s1.y }}; {not} {{s1.x}}\\n\\u00e9\\"q\\" {{s1}}"}]';
    const expected = 'A is 2; {not} A\né"q" {"x":"A","y":2}';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: plan.length }), { maxLength: 12 }), async (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const point of [...points, plan.length]) {
          if (point > from) chunks.push(plan.slice(from, point));
          from = Math.max(from, point);
        }
        const run = new AgentRuntime({
          planner: new LLMPlanner({ model: chunkedModel(chunks) }),
          registry: registryOf(() => ({ x: "A", y: 2 })),
          ...quiet,
          replyStreaming: "early",
        }).run("go");
        const events = await collect(run);
        expect(run.state.reply?.text).toBe(expected);
        expect(deltasOf(events).join("")).toBe(expected);
        expect(invariantProblems(events)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("gets no draft ahead of its steps through a planner that holds the events back", async () => {
    const inner = new LLMPlanner({
      model: chunkedModel([
        '[{"id":"s1","type":"tool","name":"a","arguments":{}},',
        '{"id":"s2","type":"reply","text":"Got ',
        '{{s1.x}} now."}]',
      ]),
    });
    const holding: Planner = {
      async *stream(request) {
        const events: PlannerEvent[] = [];
        for await (const event of inner.stream(request)) events.push(event);
        yield* events;
      },
      replan: (request) => inner.replan(request),
    };
    for (const replyStreaming of ["safe", "early"] as const) {
      const events = await collect(
        new AgentRuntime({ planner: holding, registry: registryOf(() => ({ x: 7 })), ...quiet, replyStreaming }).run(
          "go",
        ),
      );
      expect(deltasOf(events).join("")).toBe("Got 7 now.");
      expect(indexOf(events, (event) => event.type === "reply-delta")).toBeGreaterThan(
        indexOf(events, (event) => event.type === "step-end"),
      );
      expect(invariantProblems(events)).toEqual([]);
    }
  });
});
