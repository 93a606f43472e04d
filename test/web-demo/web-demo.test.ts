import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentRuntime, createRunState, LLMPlanner, type RuntimeEvent } from "../../src/index.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { describeEvent } from "../../web-demo/describe-event.ts";
import { layoutDag } from "../../web-demo/layout-dag.ts";
import { readServerSentEvents, type ServerSentEvent } from "../../web-demo/read-server-sent-events.ts";
import { toStepViews } from "../../web-demo/to-step-views.ts";

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
  const text = 'id: 0\nevent: model\ndata: {"a":1}\n\n: a comment\nid: 1\nevent: step\ndata: line one\ndata:line two\n\ndata: no event name\r\n\r\nevent: empty\n\nid: 7\rdata: cr only\r\rdata: cut off at the end';

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
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }), async (cuts) => {
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
      }),
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
    expect(layout.edges).toEqual([
      { from: "s1", to: "s3" },
      { from: "s2", to: "s3" },
      { from: "s3", to: "s4" },
      { from: "s1", to: "s4" },
    ]);
    expect(layout.width).toBe(210);
    expect(layout.height).toBe(3 * 40 + 2 * 20);
    expect(layout.nodes[0]).toMatchObject({ x: 50, y: 20 });
    expect(layout.nodes[2]).toMatchObject({ x: 105, y: 80 });
  });

  it("never moves a placed step to another layer when steps are added", () => {
    const steps = fc.array(fc.array(fc.nat(30), { maxLength: 3 }), { minLength: 1, maxLength: 25 }).map((lists) =>
      lists.map((targets, index) => ({ id: `s${index + 1}`, dependsOn: targets.filter((target) => target < index).map((target) => `s${target + 1}`) })),
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
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model, topK: 7 }), registry: createDemoTools(), model });
    const reducer = createRunState();
    const seen = new Map<string, Set<string>>();
    const notes: string[] = [];
    const lines: string[] = [];
    for await (const event of runtime.run("Look up the population of Berlin and the height of Mount Fuji, and save it as a note")) {
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
      { ...base, type: "step-planned", step: { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "x" } }, index: 0, source: "plan", safe: true },
      { ...base, type: "step-planned", step: { id: "s2", type: "reply", text: "{{s1.text}}" }, index: 1, source: "plan", safe: true },
      { ...base, type: "step-start", stepId: "s1", attempt: 1, tool: "kb_lookup", cached: false },
      { ...base, t: 9, type: "step-error", stepId: "s1", attempt: 1, error: { code: "tool-error", message: "No fact" }, final: true, durationMs: 4 },
      { ...base, type: "step-skipped", stepId: "s2", code: "replaced", reason: "Re-plan 1 replaced it" },
      { ...base, type: "step-planned", step: { id: "s3", type: "reply", text: "sorry" }, index: 2, source: "replan", safe: true },
    ];
    for (const event of events) reducer.apply(event);
    expect(toStepViews(reducer.state).map(({ id, state, note, replanned }) => ({ id, state, note, replanned }))).toEqual([
      { id: "s1", state: "failed", note: "No fact", replanned: false },
      { id: "s2", state: "skipped", note: "Re-plan 1 replaced it", replanned: false },
      { id: "s3", state: "planned", note: "", replanned: true },
    ]);
    expect(describeEvent(events[3] as RuntimeEvent)).toEqual({ time: "9 ms", text: "step-error s1: No fact" });
    expect(describeEvent({ type: "model", name: "demo", provider: "demo" })).toEqual({ time: "", text: "model: demo" });
  });
});
