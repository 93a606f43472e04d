import { describe, expect, it } from "vitest";
import { AgentRuntime, noOpReflector, type RuntimeEvent, ToolCallPlanner } from "../../src/index.ts";
import { createTurnModel, finish, streamedCall } from "../fixtures/create-turn-model.ts";
import { collect, invariantProblems } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

function runtimeWith(model: ReturnType<typeof createTurnModel>, latencyMs = 0) {
  const tools = createTestRegistry({ latencyMs });
  const planner = new ToolCallPlanner({ model });
  return {
    ...tools,
    runtime: new AgentRuntime({ planner, registry: tools.registry, memory: false, reflector: noOpReflector }),
  };
}

function statuses(events: readonly RuntimeEvent[]): string[][] {
  const seen = new Map<string, string>();
  for (const event of events) {
    if (event.type === "step-end") seen.set(event.stepId, "succeeded");
    else if (event.type === "step-error" && event.final) seen.set(event.stepId, `failed ${event.error.code}`);
    else if (event.type === "step-skipped") seen.set(event.stepId, `skipped ${event.code}`);
  }
  return [...seen];
}

describe("native tool calls in the runtime", () => {
  it("starts a read-only call before the model's turn ends, and a side-effecting one only after it ended cleanly", async () => {
    const log: string[] = [];
    const model = createTurnModel(
      [
        [
          ...streamedCall("c1", "lookup", '{"q":"paris"}'),
          { type: "pause", ms: 30 },
          ...streamedCall("c2", "send", '{"to":"ops","text":"{{s1.value}}"}'),
          { type: "pause", ms: 30 },
          finish("tool-calls"),
        ],
        [{ type: "text", text: "Sent." }, finish("stop")],
      ],
      log,
    );
    const { runtime, calls } = runtimeWith(model);
    const events: RuntimeEvent[] = [];
    for await (const event of runtime.run("look up paris and send it to ops")) {
      events.push(event);
      if (event.type === "step-start") log.push(`start ${event.stepId}`);
    }
    expect(log.indexOf("start s1")).toBeGreaterThan(-1);
    expect(log.indexOf("start s1")).toBeLessThan(log.indexOf("model tool-input-start c2"));
    // send waits for the turn's finish part, although its input (and s1) were ready before.
    expect(log.indexOf("start s2")).toBeGreaterThan(log.indexOf("model finish"));
    expect(calls.map((call) => [call.name, call.args])).toEqual([
      ["lookup", { q: "paris" }],
      ["send", { to: "ops", text: "paris!" }],
    ]);
    expect(invariantProblems(events)).toEqual([]);
    const reply = events.find((event) => event.type === "reply");
    expect(reply).toMatchObject({ text: "Sent.", source: "step" });
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    // The second turn heard the results, in the provider-neutral message shape.
    expect(model.requests[1]?.messages?.[1]).toEqual({
      role: "tool",
      results: [
        { callId: "c1", toolName: "lookup", output: { value: "paris!" } },
        { callId: "c2", toolName: "send", output: { sent: "ops" } },
      ],
    });
  });

  it("runs no side-effecting call of a turn cut off by the length limit", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "lookup", '{"q":"a"}'),
        ...streamedCall("c2", "send", '{"to":"ops"}'),
        ...streamedCall("c3", "remove", '{"id":"7"}').slice(0, 2),
        finish("length"),
      ],
    ]);
    const { runtime, calls } = runtimeWith(model);
    const events = await collect(runtime.run("go"));
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    // The added reply quotes s2, so it is skipped too, and the run answers with its template.
    expect(statuses(events)).toEqual([
      ["s1", "succeeded"],
      ["s2", "skipped unsafe-plan"],
      ["reply", "skipped dependency-failed"],
    ]);
    expect(events.find((event) => event.type === "reply")).toMatchObject({ source: "template" });
    expect(events.find((event) => event.type === "step-issue")).toMatchObject({
      issue: { code: "invalid-step", stepId: "s3" },
    });
    expect(invariantProblems(events)).toEqual([]);
    // No second turn: only the runtime's own attempt to write the reply from the results.
    expect(model.requests.map((request) => request.purpose)).toEqual(["plan", "integrate"]);
  });

  it("runs no side-effecting call of a turn with an invalid call, tells the model why, and runs the calls it makes again", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "send", '{"to":"ops"}'),
        ...streamedCall("c2", "lookup", '{"query":"wrong key"}'),
        finish("tool-calls"),
      ],
      [
        ...streamedCall("c3", "send", '{"to":"ops"}'),
        ...streamedCall("c4", "lookup", '{"q":"right key"}'),
        finish("tool-calls"),
      ],
      [{ type: "text", text: "Done." }, finish("stop")],
    ]);
    const { runtime, calls } = runtimeWith(model);
    const events = await collect(runtime.run("go"));
    expect(calls.map((call) => call.name).sort()).toEqual(["lookup", "send"]);
    expect(statuses(events).sort()).toEqual([
      ["s1", "skipped unsafe-plan"],
      ["s3", "succeeded"],
      ["s4", "succeeded"],
      ["s5", "succeeded"],
    ]);
    expect(events.find((event) => event.type === "step-issue")).toMatchObject({
      issue: { code: "missing-argument", stepId: "s2" },
    });
    const told = model.requests[1]?.messages?.[1];
    expect(told?.role === "tool" && told.results.map((result) => [result.callId, result.isError])).toEqual([
      ["c1", true],
      ["c2", true],
    ]);
    expect(told?.role === "tool" && String(told.results[0]?.output)).toContain("side effects");
    expect(invariantProblems(events)).toEqual([]);
  });

  it("sends a failed call back to the model, which answers; no re-plan is asked", async () => {
    const model = createTurnModel([
      [
        ...streamedCall("c1", "fail", "{}"),
        ...streamedCall("c2", "lookup", '{"q":"{{s1.value}}"}'),
        finish("tool-calls"),
      ],
      [{ type: "text", text: "The service is down." }, finish("stop")],
    ]);
    const { runtime } = runtimeWith(model);
    const events = await collect(runtime.run("go"));
    expect(statuses(events)).toEqual([
      ["s1", "failed tool-error"],
      ["s2", "skipped dependency-failed"],
      ["s3", "succeeded"],
    ]);
    expect(events.some((event) => event.type === "plan-start" && event.kind === "replan")).toBe(false);
    expect(model.requests[1]?.messages?.[1]).toMatchObject({
      role: "tool",
      results: [
        { callId: "c1", isError: true, output: expect.stringContaining("the service is down") },
        { callId: "c2", isError: true, output: expect.stringContaining("Not run") },
      ],
    });
    expect(events.find((event) => event.type === "reply")).toMatchObject({ text: "The service is down." });
    expect(invariantProblems(events)).toEqual([]);
  });

  it("ends completed when the model answered around what failed or did not run: it heard of each", async () => {
    const failing = createTurnModel([
      [...streamedCall("c1", "fail", "{}"), finish("tool-calls")],
      [{ type: "text", text: "The service is down." }, finish("stop")],
    ]);
    const failed = await collect(runtimeWith(failing).runtime.run("go"));
    expect(statuses(failed)).toEqual([
      ["s1", "failed tool-error"],
      ["s2", "succeeded"],
    ]);
    expect(failed.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    // A side-effecting call withheld in an unclean turn, made again in the next, and answered.
    const recovered = createTurnModel([
      [...streamedCall("c1", "send", '{"to":"ops"}'), ...streamedCall("c2", "lookup", "{}"), finish("tool-calls")],
      [...streamedCall("c3", "send", '{"to":"ops"}'), finish("tool-calls")],
      [{ type: "text", text: "Sent." }, finish("stop")],
    ]);
    const { runtime, calls } = runtimeWith(recovered);
    const events = await collect(runtime.run("go"));
    expect(calls.map((call) => call.name)).toEqual(["send"]);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(invariantProblems(events)).toEqual([]);
  });

  it("asks no reflector about a turn's failed call: the model hears of it", async () => {
    const model = createTurnModel([
      [...streamedCall("c1", "fail", "{}"), finish("tool-calls")],
      [{ type: "text", text: "The service is down." }, finish("stop")],
    ]);
    const { registry } = createTestRegistry();
    const asked: string[] = [];
    const runtime = new AgentRuntime({
      planner: new ToolCallPlanner({ model }),
      registry,
      reflector: {
        reflect: (request) => {
          asked.push(request.step.id);
          return { action: "abort", reason: "give up" };
        },
      },
    });
    const events = await collect(runtime.run("go"));
    expect(asked).toEqual([]);
    expect(events.find((event) => event.type === "reply")).toMatchObject({ text: "The service is down." });
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  it("does not count the wait for a turn's calls as the planner's silence", async () => {
    const model = createTurnModel([
      [...streamedCall("c1", "lookup", '{"q":"slow"}'), finish("tool-calls")],
      [{ type: "text", text: "Found." }, finish("stop")],
    ]);
    const tools = createTestRegistry({ latencyMs: 400 });
    const runtime = new AgentRuntime({
      planner: new ToolCallPlanner({ model }),
      registry: tools.registry,
      reflector: noOpReflector,
      modelTimeouts: { idleMs: 5_000, totalMs: 150 },
    });
    const events = await collect(runtime.run("go"));
    expect(events.find((event) => event.type === "reply")).toMatchObject({ text: "Found.", source: "step" });
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  it("stops the model and every running call when aborted while a turn waits for its calls", async () => {
    const model = createTurnModel([
      [...streamedCall("c1", "lookup", '{"q":"slow"}'), finish("tool-calls")],
      [{ type: "text", text: "never" }, finish("stop")],
    ]);
    const { runtime, calls } = runtimeWith(model, 10_000);
    const controller = new AbortController();
    const run = runtime.run("go", { signal: controller.signal });
    const events: RuntimeEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === "step-start") controller.abort();
    }
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.signal?.aborted).toBe(true);
    expect(run.state.reason).toBe("aborted");
    expect(invariantProblems(events)).toEqual([]);
  });
});
