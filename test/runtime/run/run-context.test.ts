/**
 * What a run tells its planner and keeps in memory, on its own: the
 * planner's context (earlier turns, run context, memory within its time
 * limit) and the writes of a run's reflections and result.
 */
import { describe, expect, it } from "vitest";
import { createRunState } from "../../../src/events/create-run-state.ts";
import type { RuntimeEvent } from "../../../src/events/runtime-event.ts";
import type { MemoryEntry, MemoryStore } from "../../../src/runtime/memory-store.ts";
import { plannerContext, rememberRun } from "../../../src/runtime/run/run-context.ts";
import type { RunConfig, RunInput } from "../../../src/runtime/run/run-core.ts";
import { tool } from "../fake-planner.ts";
import { createFakeClock } from "./fake-clock.ts";
import { planSource } from "./part-fixtures.ts";
import { createPhaseCore, settle } from "./phase-fixtures.ts";

const stored: MemoryEntry = { kind: "result", runId: "r0", query: "weather", content: { temp: 20 }, at: 0 };

/** A memory store that records reads and writes; each answer is what `read` and `write` give. */
function createMemory(
  read: (query: string) => ReturnType<MemoryStore["read"]> = () => [stored],
  write: (entry: MemoryEntry) => ReturnType<MemoryStore["write"]> = () => undefined,
) {
  const reads: string[] = [];
  const writes: MemoryEntry[] = [];
  const memory: MemoryStore = {
    read: (query) => {
      reads.push(query);
      return read(query);
    },
    write: (entry) => {
      writes.push(entry);
      return write(entry);
    },
  };
  return { memory, reads, writes };
}

function coreWith(overrides: Partial<RunConfig>, input: Partial<RunInput> = {}) {
  return createPhaseCore(overrides, { input: { query: "weather", ...input } });
}

/** A run state with two reflections and a reply. */
function endedState() {
  const reducer = createRunState();
  const base = { runId: "r1", t: 0 };
  const events: RuntimeEvent[] = [
    { ...base, type: "reflection", stepId: "s1", action: "retry", reason: "try again" },
    { ...base, type: "reflection", stepId: "s1", action: "new_plan", reason: "give up" },
    { ...base, type: "reply-delta", delta: "It is 21" },
    { ...base, type: "reply", text: "It is 21", source: "step", stepId: "s2" },
  ];
  for (const event of events) reducer.apply(event);
  return reducer.state;
}

describe("plannerContext", () => {
  it("is empty for a first turn with no run context and no memory", async () => {
    expect(await plannerContext(coreWith({}).core)).toBe("");
  });

  it("joins earlier turns, the run context and what memory holds about the request, in that order", async () => {
    const { memory, reads } = createMemory();
    const { core } = coreWith({ memory }, { history: "user: hi\nassistant: hello", context: { city: "Paris" } });
    expect(await plannerContext(core)).toBe(
      [
        "Conversation so far:\nuser: hi\nassistant: hello",
        'Run context (reference it as {{context.<key>}}): {"city":"Paris"}',
        'Memory of earlier runs:\n- [result] weather: {"temp":20}',
      ].join("\n\n"),
    );
    expect(reads).toEqual(["weather"]);
  });

  it("leaves out an empty memory, and cuts a large run context short", async () => {
    const { memory } = createMemory(() => []);
    const { core } = coreWith({ memory }, { context: { notes: "n".repeat(5_000) } });
    const text = await plannerContext(core);
    expect(text.startsWith('Run context (reference it as {{context.<key>}}): {"notes":"nnn')).toBe(true);
    expect(text.length).toBeLessThan(2_100);
    expect(text).not.toContain("Memory");
  });

  it("goes on without memory that stalls past its time limit, on the run's clock", async () => {
    const clock = createFakeClock();
    const { memory } = createMemory(() => new Promise<never>(() => undefined));
    const { core } = coreWith({ memory, clock, memoryTimeoutMs: 300 }, { history: "user: hi" });
    let text: string | undefined;
    void plannerContext(core).then((value) => (text = value));
    await settle();
    clock.advance(299);
    await settle();
    expect(text).toBeUndefined();
    clock.advance(1);
    await settle();
    expect(text).toBe("Conversation so far:\nuser: hi");
  });

  it("stops waiting for memory when the run stops", async () => {
    const { memory } = createMemory(() => new Promise<never>(() => undefined));
    const { core, controller } = coreWith({ memory, memoryTimeoutMs: 60_000 }, { history: "user: hi" });
    const pending = plannerContext(core);
    await settle();
    controller.abort();
    expect(await pending).toBe("Conversation so far:\nuser: hi");
  });
});

describe("rememberRun", () => {
  it("writes the run's reflections, then its result with its reply and steps, stamped with the run's clock", async () => {
    const clock = createFakeClock(5_000);
    const { memory, writes } = createMemory();
    const { core, table } = coreWith({ memory, clock });
    table.succeed(table.add(tool("s1", "read"), planSource()), { temp: 21 });
    await rememberRun(core, "budget", endedState());
    expect(writes.map((entry) => [entry.kind, entry.runId, entry.query, entry.at])).toEqual([
      ["reflection", "r1", "weather", 5_000],
      ["reflection", "r1", "weather", 5_000],
      ["result", "r1", "weather", 5_000],
    ]);
    expect(writes.map((entry) => (entry.content as { reason: string }).reason)).toEqual([
      "try again",
      "give up",
      "budget",
    ]);
    expect(writes[2]?.content).toEqual({
      reason: "budget",
      reply: "It is 21",
      steps: [{ id: "s1", tool: "read", status: "succeeded", result: { temp: 21 } }],
    });
  });

  it("stops writing once the run ended, and gives up a write that stalls past the limit", async () => {
    let stop: () => void = () => undefined;
    const ending = createMemory(undefined, () => stop());
    const first = coreWith({ memory: ending.memory });
    stop = first.end;
    await rememberRun(first.core, "completed", endedState());
    expect(ending.writes.map((entry) => entry.kind)).toEqual(["reflection"]);

    const clock = createFakeClock();
    const stalling = createMemory(undefined, () => new Promise<never>(() => undefined));
    const second = coreWith({ memory: stalling.memory, clock, memoryTimeoutMs: 100 });
    let done = false;
    void rememberRun(second.core, "failed", endedState()).then(() => (done = true));
    await settle();
    expect(stalling.writes).toHaveLength(1);
    clock.advance(100);
    await settle();
    expect(stalling.writes).toHaveLength(2);
    clock.advance(100);
    await settle();
    clock.advance(100);
    await settle();
    expect(done).toBe(true);
    expect(stalling.writes.map((entry) => entry.kind)).toEqual(["reflection", "reflection", "result"]);
  });
});
