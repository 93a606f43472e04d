import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentRuntime, LLMPlanner, type RuntimeEvent } from "../../src/index.ts";
import { describeEvent } from "../../web-demo/describe-event.ts";
import { postEventStream } from "../../web-demo/post-event-stream.ts";
import { readServerSentEvents, type ServerSentEvent } from "../../web-demo/read-server-sent-events.ts";
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
    const whole = await readAll([`${text}\n\ndata: é 東京\r\n\r\n`]);
    const bytes = new TextEncoder().encode(`${text}\n\ndata: é 東京\r\n\r\n`);
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

describe("describeEvent", () => {
  it("writes each event of a real run as one line of the timeline", async () => {
    const model = createDemoModel({ tokensPerSecond: Infinity });
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry: createDemoTools(), model });
    const lines: string[] = [];
    for await (const event of runtime.run(
      "Look up the population of Berlin and the height of Mount Fuji, and save it as a note",
    ))
      lines.push(describeEvent(event).text);
    expect(lines[0]).toBe("plan-start (plan 1)");
    expect(lines).toContain("step-planned s3 (save_note, waits for the full plan)");
    expect(lines.at(-1)).toMatch(/^run-end: completed in \d+ ms, 3 tool call\(s\), 1 model call\(s\)$/);
  });

  it("says what failed, and names the model", () => {
    const event: RuntimeEvent = {
      runId: "r",
      t: 9,
      type: "step-error",
      stepId: "s1",
      attempt: 1,
      error: { code: "tool-error", message: "No fact" },
      final: true,
      durationMs: 4,
    };
    expect(describeEvent(event)).toEqual({ time: "9 ms", text: "step-error s1: No fact" });
    expect(describeEvent({ type: "model", name: "demo", provider: "demo" })).toEqual({ time: "", text: "model: demo" });
  });
});

describe("describeEvent of an approval decision", () => {
  const decision = (fields: Partial<RuntimeEvent & { type: "approval-decision" }>): RuntimeEvent =>
    ({
      runId: "r",
      t: 5,
      type: "approval-decision",
      requestId: "a1",
      stepId: "s1",
      approved: true,
      by: "caller",
      ...fields,
    }) as RuntimeEvent;

  it("says when the person approved edited arguments, and shows them", () => {
    expect(describeEvent(decision({ arguments: { title: "shopping", text: "milk" } })).text).toBe(
      'approval-decision s1: approved with edited arguments {"title":"shopping","text":"milk"} (caller)',
    );
    expect(describeEvent(decision({})).text).toBe("approval-decision s1: approved (caller)");
  });

  it("gives a denial's reason, and says when nobody answered", () => {
    expect(describeEvent(decision({ approved: false, reason: "not today" })).text).toBe(
      "approval-decision s1: denied — not today (caller)",
    );
    expect(describeEvent(decision({ approved: false, reason: "no decision in time", by: "timeout" })).text).toBe(
      "approval-decision s1: denied — no decision in time (timeout)",
    );
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
