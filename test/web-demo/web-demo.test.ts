import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRunState } from "../../src/events.ts";
import { AgentRuntime, LLMPlanner, type RuntimeEvent } from "../../src/index.ts";
import { describeEvent } from "../../web-demo/describe-event.ts";
import { describeRunStatus } from "../../web-demo/describe-run-status.ts";
import { layoutDag } from "../../web-demo/layout-dag.ts";
import { postEventStream } from "../../web-demo/post-event-stream.ts";
import { readServerSentEvents, type ServerSentEvent } from "../../web-demo/read-server-sent-events.ts";
import { stopStepViews } from "../../web-demo/stop-step-views.ts";
import { type StepView, toStepViews } from "../../web-demo/to-step-views.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";

function streamOf(chunks: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const queue = [...chunks];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
}

async function readAll(chunks: readonly string[]): Promise<ServerSentEvent[]> {
  const messages: ServerSentEvent[] = [];
  for await (const message of readServerSentEvents(streamOf(chunks))) messages.push(message);
  return messages;
}

describe("readServerSentEvents", () => {
  const text =
    'id: 0\nevent: model\ndata: {"a":1}\n\n: a comment\nid: 1\nevent: step\ndata: line one\ndata:line two\n\ndata: no event name\r\n\r\nevent: empty\n\nid: 7\rdata: cr only\r\rdata: cut off at the end';

  it("parses ids, event names, multi-line data and comments, and drops messages without data or an end", async () => {
    expect(await readAll([text])).toEqual([
      { id: "0", event: "model", data: '{"a":1}' },
      { id: "1", event: "step", data: "line one\nline two" },
      { id: "1", event: "message", data: "no event name" },
      { id: "7", event: "message", data: "cr only" },
    ]);
  });

  it("gives the same messages for every split of the bytes, including inside CRLF and UTF-8 sequences", async () => {
    const whole = await readAll([text + "\n\n" + "data: é 東京\r\n\r\n"]);
    const bytes = new TextEncoder().encode(text + "\n\n" + "data: é 東京\r\n\r\n");
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const parts = points.slice(1).map((end, index) => bytes.slice(points[index], end));
          const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
              const next = parts.shift();
              if (next === undefined) controller.close();
              else controller.enqueue(next);
            },
          });
          const messages: ServerSentEvent[] = [];
          for await (const message of readServerSentEvents(stream)) messages.push(message);
          expect(messages).toEqual(whole);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("does not take a later LF for the second half of a CR that ended an earlier chunk", async () => {
    expect(await readAll(["data: a\r\r", "data: b", "\n\ndata: c\n\n"])).toEqual([
      { id: undefined, event: "message", data: "a" },
      { id: undefined, event: "message", data: "b" },
      { id: undefined, event: "message", data: "c" },
    ]);
  });

  it("stops reading when the signal fires", async () => {
    const controller = new AbortController();
    const endless = new ReadableStream<Uint8Array>({
      pull(stream) {
        stream.enqueue(new TextEncoder().encode("data: tick\n\n"));
      },
    });
    let count = 0;
    for await (const message of readServerSentEvents(endless, controller.signal)) {
      expect(message.data).toBe("tick");
      if (++count === 3) controller.abort();
    }
    expect(count).toBe(3);
  });
});

describe("layoutDag", () => {
  it("puts independent steps in one layer and dependent steps below the deepest dependency", () => {
    const layout = layoutDag(
      [
        { id: "s1", dependsOn: [] },
        { id: "s2", dependsOn: [] },
        { id: "s3", dependsOn: ["s1", "s2"] },
        { id: "s4", dependsOn: ["s3", "s1", "nowhere"] },
      ],
      { nodeWidth: 100, nodeHeight: 40, gapX: 10, gapY: 20 },
    );
    expect(layout.nodes.map(({ id, layer, slot }) => [id, layer, slot])).toEqual([
      ["s1", 0, 0],
      ["s2", 0, 1],
      ["s3", 1, 0],
      ["s4", 2, 0],
    ]);
    expect(layout.edges.map(({ from, to }) => ({ from, to }))).toEqual([
      { from: "s1", to: "s3" },
      { from: "s2", to: "s3" },
      { from: "s3", to: "s4" },
      { from: "s1", to: "s4" },
    ]);
    // s1 → s4 skips the layer of s3 (x 105, 100 wide): it passes beside it, through the layer's top and bottom.
    expect(layout.edges[3]?.points).toEqual([
      { x: 50, y: 40 },
      { x: 105 - 50 - 5, y: 60 },
      { x: 105 - 50 - 5, y: 100 },
      { x: 105, y: 120 },
    ]);
    expect(layout.width).toBe(210);
    expect(layout.height).toBe(3 * 40 + 2 * 20);
    expect(layout.nodes[0]).toMatchObject({ x: 50, y: 20 });
    expect(layout.nodes[2]).toMatchObject({ x: 105, y: 80 });
  });

  it("never moves a placed step to another layer when steps are added", () => {
    const steps = fc
      .array(fc.array(fc.nat(30), { maxLength: 3 }), { minLength: 1, maxLength: 25 })
      .map((lists) =>
        lists.map((targets, index) => ({
          id: `s${index + 1}`,
          dependsOn: targets.filter((target) => target < index).map((target) => `s${target + 1}`),
        })),
      );
    fc.assert(
      fc.property(steps, (plan) => {
        let previous = new Map<string, number>();
        for (let count = 1; count <= plan.length; count++) {
          const layout = layoutDag(plan.slice(0, count));
          const layers = new Map(layout.nodes.map((node) => [node.id, node.layer]));
          for (const [id, layer] of previous) expect(layers.get(id)).toBe(layer);
          for (const edge of layout.edges) expect(layers.get(edge.from) ?? 0).toBeLessThan(layers.get(edge.to) ?? 0);
          previous = layers;
        }
      }),
    );
  });
});

describe("toStepViews and describeEvent", () => {
  it("follows a run from planned to done, showing what waits and why", async () => {
    const model = createDemoModel({ tokensPerSecond: Infinity });
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry: createDemoTools(), model });
    const reducer = createRunState();
    const seen = new Map<string, Set<string>>();
    const notes: string[] = [];
    const lines: string[] = [];
    for await (const event of runtime.run(
      "Look up the population of Berlin and the height of Mount Fuji, and save it as a note",
    )) {
      reducer.apply(event);
      lines.push(describeEvent(event).text);
      for (const view of toStepViews(reducer.state)) {
        if (!seen.has(view.id)) seen.set(view.id, new Set());
        seen.get(view.id)?.add(view.state);
        if (view.note !== "") notes.push(`${view.id}: ${view.note}`);
      }
    }
    const final = toStepViews(reducer.state);
    expect(final.map((view) => [view.id, view.label, view.state])).toEqual([
      ["s1", "kb_lookup", "done"],
      ["s2", "kb_lookup", "done"],
      ["s3", "save_note", "done"],
      ["s4", "reply", "done"],
    ]);
    expect(final[2]?.dependsOn).toEqual(["s1", "s2"]);
    expect(final[0]?.timing).toMatch(/^took \d+ ms \(from \d+ ms\)$/);
    expect(seen.get("s1")).toContain("running");
    expect(notes).toContain("s3: has side effects: waits for the complete plan");
    expect(notes.some((note) => /^s4: waits for s1, s2, s3$|^s4: waits for s3$/.test(note))).toBe(true);
    expect(lines[0]).toBe("plan-start (plan 1)");
    expect(lines).toContain("step-planned s3 (save_note, waits for the full plan)");
    expect(lines.at(-1)).toMatch(/^run-end: completed in \d+ ms, 3 tool call\(s\), 1 model call\(s\)$/);
  });

  it("shows failures, skips and re-plans", () => {
    const reducer = createRunState();
    const base = { runId: "r", t: 5 };
    const events: RuntimeEvent[] = [
      {
        ...base,
        type: "step-planned",
        step: { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "x" } },
        index: 0,
        source: "plan",
        safe: true,
      },
      {
        ...base,
        type: "step-planned",
        step: { id: "s2", type: "reply", text: "{{s1.text}}" },
        index: 1,
        source: "plan",
        safe: true,
      },
      { ...base, type: "step-start", stepId: "s1", attempt: 1, tool: "kb_lookup", cached: false },
      {
        ...base,
        t: 9,
        type: "step-error",
        stepId: "s1",
        attempt: 1,
        error: { code: "tool-error", message: "No fact" },
        final: true,
        durationMs: 4,
      },
      { ...base, type: "step-skipped", stepId: "s2", code: "replaced", reason: "Re-plan 1 replaced it" },
      {
        ...base,
        type: "step-planned",
        step: { id: "s3", type: "reply", text: "sorry" },
        index: 2,
        source: "replan",
        safe: true,
      },
    ];
    for (const event of events) reducer.apply(event);
    expect(
      toStepViews(reducer.state).map(({ id, state, note, replanned }) => ({ id, state, note, replanned })),
    ).toEqual([
      { id: "s1", state: "failed", note: "No fact", replanned: false },
      { id: "s2", state: "skipped", note: "Re-plan 1 replaced it", replanned: false },
      { id: "s3", state: "planned", note: "", replanned: true },
    ]);
    expect(describeEvent(events[3] as RuntimeEvent)).toEqual({ time: "9 ms", text: "step-error s1: No fact" });
    expect(describeEvent({ type: "model", name: "demo", provider: "demo" })).toEqual({ time: "", text: "model: demo" });
  });
});

describe("layoutDag: arrows around nodes", () => {
  it("never runs an arrow through a node of a layer it passes", () => {
    const steps = fc
      .array(fc.array(fc.nat(30), { maxLength: 3 }), { minLength: 1, maxLength: 25 })
      .map((lists) =>
        lists.map((targets, index) => ({
          id: `s${index + 1}`,
          dependsOn: targets.filter((target) => target < index).map((target) => `s${target + 1}`),
        })),
      );
    const sizes = { nodeWidth: 168, nodeHeight: 64, gapX: 16, gapY: 36 };
    fc.assert(
      fc.property(steps, (plan) => {
        const layout = layoutDag(plan, sizes);
        const byId = new Map(layout.nodes.map((node) => [node.id, node]));
        for (const edge of layout.edges) {
          const from = byId.get(edge.from);
          const to = byId.get(edge.to);
          expect(edge.points[0]).toEqual({ x: from?.x, y: (from?.y ?? 0) + sizes.nodeHeight / 2 });
          expect(edge.points.at(-1)).toEqual({ x: to?.x, y: (to?.y ?? 0) - sizes.nodeHeight / 2 });
          expect(edge.points).toHaveLength(2 + 2 * ((to?.layer ?? 0) - (from?.layer ?? 0) - 1));
          // Inside a layer the arrow is a vertical line at one x; no node of that layer may cover that x.
          for (let index = 1; index + 1 < edge.points.length; index += 2) {
            const top = edge.points[index];
            const bottom = edge.points[index + 1];
            expect(top?.x).toBe(bottom?.x);
            const layer = Math.round((top?.y ?? 0) / (sizes.nodeHeight + sizes.gapY));
            for (const node of layout.nodes.filter((candidate) => candidate.layer === layer)) {
              expect(Math.abs(node.x - (top?.x ?? 0))).toBeGreaterThanOrEqual(sizes.nodeWidth / 2);
            }
          }
        }
      }),
    );
  });
});

describe("stopStepViews and describeRunStatus", () => {
  const view = (id: string, state: StepView["state"]): StepView => ({
    id,
    state,
    label: "kb_lookup",
    detail: "",
    dependsOn: [],
    timing: "",
    note: "",
    replanned: false,
  });

  it("marks what had not ended as aborted and keeps what had", () => {
    const views = [
      view("s1", "done"),
      view("s2", "running"),
      view("s3", "waiting"),
      view("s4", "planned"),
      view("s5", "failed"),
      view("s6", "skipped"),
    ];
    const stopped = stopStepViews(views);
    expect(stopped.map((entry) => entry.state)).toEqual(["done", "aborted", "aborted", "aborted", "failed", "skipped"]);
    expect(stopped[1]?.note).toBe("stopped before it finished");
    expect(views[1]?.state).toBe("running");
  });

  it("follows a run: planning, running n steps while the plan streams, done in t", async () => {
    const model = createDemoModel({ tokensPerSecond: Infinity });
    const runtime = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry: createDemoTools({ slowLookupDelayMs: 5 }),
      model,
    });
    const reducer = createRunState();
    const lines: string[] = [describeRunStatus(reducer.state)];
    for await (const event of runtime.run(
      "Do a deep archive lookup of the heights of Mount Everest and Mount Fuji and their difference",
    )) {
      reducer.apply(event);
      const line = describeRunStatus(reducer.state);
      if (line !== lines.at(-1)) lines.push(line);
    }
    expect(lines[0]).toBe("Starting…");
    expect(lines).toContain("Planning…");
    expect(lines.some((line) => /^Running 2 steps( while the plan streams)?…$/u.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^Done in \d+(?: ms|\.\d s): 3 steps ran\.$/u);
  });

  it("says Stopped for an aborted run and names the error of a failed one", () => {
    const reducer = createRunState();
    const usage = { steps: 0, toolCalls: 0, modelCalls: 0, replans: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 };
    reducer.apply({ type: "run-end", runId: "r", t: 10, reason: "aborted", durationMs: 10, usage } as RuntimeEvent);
    expect(describeRunStatus(reducer.state)).toBe("Stopped.");
    const failed = createRunState();
    failed.apply({
      type: "run-end",
      runId: "r",
      t: 10,
      reason: "failed",
      durationMs: 1500,
      usage,
      error: { code: "tool-error", message: "boom" },
    } as RuntimeEvent);
    expect(describeRunStatus(failed.state)).toBe("Run failed after 1.5 s: boom");
  });
});

describe("postEventStream", () => {
  it("names the URL and what to check when the Worker cannot be reached", async () => {
    const original = globalThis.fetch;
    globalThis.fetch = (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch;
    try {
      const events = postEventStream("/v1/run", { query: "x" }, { baseUrl: "http://127.0.0.1:8787/" });
      await expect(events.next()).rejects.toThrow(
        /^Could not reach the Worker at http:\/\/127\.0\.0\.1:8787\/v1\/run \(Failed to fetch\)\. Check that it is running \(npm start serves it on http:\/\/localhost:8787\)/u,
      );
    } finally {
      globalThis.fetch = original;
    }
  });
});
