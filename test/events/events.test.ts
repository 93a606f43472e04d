import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { createRunState } from "../../src/events/create-run-state.ts";
import { encodeJsonl } from "../../src/events/encode-jsonl.ts";
import { encodeSse } from "../../src/events/encode-sse.ts";
import { JsonlEncoderStream } from "../../src/events/jsonl-encoder-stream.ts";
import { parseJsonl } from "../../src/events/parse-jsonl.ts";
import { replay } from "../../src/events/replay.ts";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import { SseEncoderStream } from "../../src/events/sse-encoder-stream.ts";
import { toJsonl } from "../../src/events/to-jsonl.ts";
import { toReadableStream } from "../../src/events/to-readable-stream.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import type { RuntimeClock } from "../../src/shared/runtime-clock.ts";
import { collect, createFakePlanner, reply, tool } from "../runtime/fake-planner.ts";
import { createTestRegistry } from "../runtime/test-tools.ts";

/** A clock that advances 1 ms per reading, with real timers. */
function steppingClock(): RuntimeClock {
  let now = 1000;
  return {
    now: () => now++,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

async function sampleRun(): Promise<{ events: RuntimeEvent[]; state: ReturnType<typeof replay> }> {
  const { registry } = createTestRegistry();
  const planner = createFakePlanner({
    steps: [
      tool("s1", "lookup", { q: "a" }),
      tool("s2", "fail"),
      tool("s3", "lookup", { q: "{{s2.x}}" }),
      reply("s4", "{{s1.value}}"),
    ],
    replan: () => [tool("s5", "lookup", { q: "b" }), reply("s6", "{{s1.value}} {{s5.value}}")],
  });
  const runtime = new AgentRuntime({
    planner,
    registry,
    memory: false,
    retries: 1,
    clock: steppingClock(),
    sleep: async () => undefined,
    idGenerator: () => "run-7",
    random: () => 0,
  });
  const run = runtime.run("go");
  const events = await collect(run);
  return { events, state: run.state };
}

describe("events, encoders and replay", () => {
  it("events are plain JSON with type, runId and t first", async () => {
    const { events } = await sampleRun();
    for (const event of events) {
      expect(Object.keys(event).slice(0, 3)).toEqual(["type", "runId", "t"]);
      expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    }
    const perStep = (id: string): string[] =>
      events
        .filter(
          (event) =>
            ("stepId" in event && event.stepId === id && event.type !== "reply") ||
            (event.type === "step-planned" && event.step.id === id),
        )
        .map((event) => event.type);
    expect(perStep("s1")).toEqual(["step-planned", "step-start", "step-end"]);
    expect(perStep("s2")).toEqual([
      "step-planned",
      "step-start",
      "step-error",
      "step-retry",
      "step-start",
      "step-error",
    ]);
    expect(perStep("s3")).toEqual(["step-planned", "step-skipped"]);
    expect(perStep("s4")).toEqual(["step-planned", "step-skipped"]);
    expect(perStep("s6")).toEqual(["step-planned", "step-start", "step-end"]);
    const position = (predicate: (event: RuntimeEvent) => boolean): number => events.findIndex(predicate);
    expect(events[0]?.type).toBe("plan-start");
    expect(events[events.length - 1]?.type).toBe("run-end");
    expect(position((event) => event.type === "replan")).toBeLessThan(
      position((event) => event.type === "step-planned" && event.step.id === "s5"),
    );
    expect(position((event) => event.type === "plan-end")).toBeLessThan(position((event) => event.type === "replan"));
    expect(position((event) => event.type === "step-end" && event.stepId === "s6")).toBeLessThan(
      position((event) => event.type === "reply"),
    );
    // The stepping clock advances 1 ms per reading: offsets grow.
    expect(events.map((event) => event.t)).toEqual([...events.map((event) => event.t)].sort((a, b) => a - b));
  });

  it("replay of the JSONL log equals the live state", async () => {
    const { events, state } = await sampleRun();
    const log = toJsonl(events);
    expect(log.split("\n")).toHaveLength(events.length + 1);
    const replayed = replay(parseJsonl(log));
    expect(replayed).toEqual(state);
    expect(replayed).toMatchObject({
      runId: "run-7",
      status: "ended",
      reason: "completed",
      replans: 1,
      reply: { text: "a! b!", source: "step", stepId: "s6" },
    });
    expect(replayed.steps.map((step) => [step.step.id, step.status])).toEqual([
      ["s1", "succeeded"],
      ["s2", "failed"],
      ["s3", "skipped"],
      ["s4", "skipped"],
      ["s5", "succeeded"],
      ["s6", "succeeded"],
    ]);
  });

  it("the reducer can be fed one event at a time", async () => {
    const { events } = await sampleRun();
    const reducer = createRunState();
    expect(reducer.state.status).toBe("idle");
    reducer.apply(events[0] as RuntimeEvent);
    expect(reducer.state.status).toBe("running");
    for (const event of events.slice(1)) reducer.apply(event);
    expect(reducer.state.status).toBe("ended");
  });

  it("encodes JSONL and SSE, and streams both", async () => {
    const event: RuntimeEvent = { type: "reply", runId: "r", t: 3, text: "line one\nline two", source: "template" };
    expect(encodeJsonl(event)).toBe(
      '{"type":"reply","runId":"r","t":3,"text":"line one\\nline two","source":"template"}\n',
    );
    expect(encodeSse(event, 4)).toBe(
      'id: 4\nevent: reply\ndata: {"type":"reply","runId":"r","t":3,"text":"line one\\nline two","source":"template"}\n\n',
    );
    expect(encodeSse(event)).not.toContain("id:");
    const cyclic: Record<string, unknown> = { a: 1n };
    cyclic["self"] = cyclic;
    const odd = encodeJsonl({
      type: "step-end",
      runId: "r",
      t: 1,
      stepId: "s",
      attempt: 1,
      result: cyclic,
      durationMs: 0,
      cached: false,
    });
    expect(JSON.parse(odd)).toMatchObject({ result: { a: "1", self: "[Circular]" } });

    const { events } = await sampleRun();
    const source = async function* () {
      yield* events;
    };
    const jsonl = await readAll(toReadableStream(source()).pipeThrough(new JsonlEncoderStream()));
    expect(jsonl).toBe(toJsonl(events));
    const sse = await readAll(toReadableStream(source()).pipeThrough(new SseEncoderStream(10)));
    const messages = sse.split("\n\n").filter((message) => message !== "");
    expect(messages).toHaveLength(events.length);
    expect(messages[0]).toBe(`id: 10\nevent: plan-start\ndata: ${JSON.stringify(events[0])}`);
  });

  it("parseJsonl names the bad line", () => {
    let caught: unknown;
    try {
      parseJsonl('{"type":"reply"}\n\nnot json\n');
    } catch (error) {
      caught = error;
    }
    expect(
      PlankitError.isInstance(caught) && caught.code === "json-syntax" && caught.message.startsWith("Line 3 "),
    ).toBe(true);
    expect(() => parseJsonl("[1]")).toThrow("Line 1 of the event log is not an event object");
  });

  it("the handle is iterable more than once and keeps every event", async () => {
    const { registry } = createTestRegistry();
    const planner = createFakePlanner({ steps: [reply("s1", "hi")] });
    const run = new AgentRuntime({ planner, registry, memory: false }).run("go");
    const first = await collect(run);
    const second = await collect(run);
    expect(second).toEqual(first);
    expect(run.events).toEqual(first);
  });
});

async function readAll(stream: ReadableStream<string>): Promise<string> {
  let text = "";
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return text;
    text += next.value;
  }
}
