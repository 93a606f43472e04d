/**
 * createChatTransport made anew for every request, as a UI component makes
 * it on each render: the run that waits for approval answers is found by
 * runtime and chat, continued once, and let go when it ends or waits too long.
 */
import { type ChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { type ChatTransportOptions, createChatTransport } from "../../src/ai.ts";
import { AgentRuntime, noOpReflector, PlankitError, type RunHandle, type RuntimeClock } from "../../src/index.ts";
import { createFakePlanner, reply, tool } from "../runtime/fake-planner.ts";
import { createTestRegistry } from "../runtime/test-tools.ts";
import { TestChat, until } from "./test-chat.ts";

/** A runtime whose plan is: look up (read-only), send (needs approval), reply; with every run it started. */
function createRuntime(options: { approvalTimeoutMs?: number } = {}) {
  const { registry, calls } = createTestRegistry();
  const runs: RunHandle[] = [];
  const planner = createFakePlanner({
    steps: [
      tool("s1", "lookup", { q: "tokyo" }),
      tool("s2", "send", { to: "ann", text: "{{s1.value}}" }),
      reply("s3", "sent {{s2.sent}}"),
    ],
  });
  const runtime = new AgentRuntime({
    planner,
    registry,
    memory: false,
    reflector: noOpReflector,
    integrate: "template",
    policy: { send: { approval: "plan" } },
    idGenerator: () => `run_${runs.length + 1}`,
    ...options,
  });
  const chatRuntime = {
    run: (...args: Parameters<AgentRuntime["run"]>) => {
      const run = runtime.run(...args);
      runs.push(run);
      return run;
    },
  };
  return { runtime: chatRuntime, runs, calls };
}

/**
 * A transport that, like `useChat` with `transport: createChatTransport(runtime)`
 * written in the component, makes a new transport for every request.
 */
function transportPerRender(
  runtime: ReturnType<typeof createRuntime>["runtime"],
  options?: ChatTransportOptions,
): ChatTransport<UIMessage> & { made: number } {
  const transport = {
    made: 0,
    sendMessages: (request: Parameters<ChatTransport<UIMessage>["sendMessages"]>[0]) => {
      transport.made++;
      return createChatTransport(runtime, options).sendMessages(request);
    },
    reconnectToStream: () => Promise.resolve(null),
  };
  return transport;
}

/** A clock whose timers fire when the test says. */
function createManualClock(): RuntimeClock & { pending(): number; fire(): void; delays: number[] } {
  const timers = new Map<number, () => void>();
  const delays: number[] = [];
  let next = 0;
  return {
    delays,
    now: () => 0,
    setTimeout: (callback, ms) => (delays.push(ms), timers.set(++next, callback), next),
    clearTimeout: (handle) => void timers.delete(handle as number),
    pending: () => timers.size,
    fire() {
      const callbacks = [...timers.values()];
      timers.clear();
      for (const callback of callbacks) callback();
    },
  };
}

/** The approval id of the chat's part of step `stepId` in state `approval-requested`. */
function requestedApproval(chat: TestChat, stepId: string): string {
  const part = chat.all
    .at(-1)
    ?.parts.find(
      (candidate) =>
        candidate.type === "dynamic-tool" &&
        candidate.toolCallId === stepId &&
        candidate.state === "approval-requested",
    ) as { approval: { id: string } } | undefined;
  expect(part).toBeDefined();
  return part?.approval.id ?? "";
}

describe("createChatTransport made on every render", () => {
  it("continues the waiting run: the approved step runs once, the read-only step is not run again, and the run ends", async () => {
    const { runtime, runs, calls } = createRuntime();
    const transport = transportPerRender(runtime);
    const chat = new TestChat({
      id: "chat_1",
      transport,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    expect(runs[0]?.state.awaitingApproval).toEqual(["s2"]);

    await chat.addToolApprovalResponse({ id: requestedApproval(chat, "s2"), approved: true });
    await until(() => transport.made === 2 && chat.current === "ready");

    expect(calls.map((call) => call.name)).toEqual(["lookup", "send"]);
    expect(runs).toHaveLength(1);
    await until(() => runs[0]?.state.status === "ended");
    expect(runs[0]?.state.reason).toBe("completed");
    expect(chat.all.map((message) => message.role)).toEqual(["user", "assistant"]);
    const parts = chat.all[1]?.parts ?? [];
    expect(parts.filter((part) => part.type === "dynamic-tool").map((part) => [part.toolCallId, part.state])).toEqual([
      ["s1", "output-available"],
      ["s2", "output-available"],
    ]);
    expect(parts.filter((part) => part.type === "text").map((part) => part.text)).toEqual(["sent ann"]);
  });

  it("shares the waiting run between transports of the same runtime, by chat: another chat cannot answer it", async () => {
    const { runtime, runs, calls } = createRuntime();
    const chat = new TestChat({ id: "chat_1", transport: createChatTransport(runtime) });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    await chat.addToolApprovalResponse({ id: requestedApproval(chat, "s2"), approved: true });
    const answered = structuredClone(chat.all);

    const request = {
      trigger: "submit-message" as const,
      messageId: answered[1]?.id,
      messages: answered,
      abortSignal: undefined,
    };
    const elsewhere = await createChatTransport(runtime)
      .sendMessages({ ...request, chatId: "chat_2" })
      .catch((error: unknown) => error);
    expect(PlankitError.isInstance(elsewhere) && elsewhere.code).toBe("invalid-approval");
    expect((elsewhere as Error).message).toBe(
      'Chat "chat_2" answered approval requests of message "run_1", but no run waits for them any more (it ended, was stopped, or waited too long); send the request again',
    );
    expect(runs).toHaveLength(1);

    const stream = await createChatTransport(runtime).sendMessages({ ...request, chatId: "chat_1" });
    const reader = stream.getReader();
    while (!(await reader.read()).done);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.state.reason).toBe("completed");
    expect(calls.map((call) => call.name)).toEqual(["lookup", "send"]);
  });

  it("aborts a run nobody answered within maxApprovalWaitMs, and refuses later answers instead of running the plan again", async () => {
    const { runtime, runs, calls } = createRuntime();
    const clock = createManualClock();
    const chat = new TestChat({
      id: "chat_1",
      transport: transportPerRender(runtime, { maxApprovalWaitMs: 60_000, clock }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    expect(clock.pending()).toBe(1);
    expect(clock.delays).toEqual([60_000]);

    clock.fire();
    await until(() => runs[0]?.state.status === "ended");
    expect(runs[0]?.state.reason).toBe("aborted");
    expect(runs[0]?.state.error?.message).toBe("No approval answer came within 60000 ms");

    await chat.addToolApprovalResponse({ id: requestedApproval(chat, "s2"), approved: true });
    await until(() => chat.current === "error");
    expect(PlankitError.isInstance(chat.failure) && chat.failure.code).toBe("invalid-approval");
    expect(runs).toHaveLength(1);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
  });

  it("lets go of a run the runtime's approvalTimeoutMs ends, with no timer of its own", async () => {
    const { runtime, runs, calls } = createRuntime({ approvalTimeoutMs: 30 });
    const clock = createManualClock();
    const chat = new TestChat({
      id: "chat_1",
      transport: transportPerRender(runtime, { clock }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    const approvalId = requestedApproval(chat, "s2");
    expect(clock.pending()).toBe(0);
    await until(() => runs[0]?.state.status === "ended");
    expect(runs[0]?.state.steps[1]).toMatchObject({ status: "skipped", skip: { code: "denied" } });

    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await until(() => chat.current === "error");
    expect(PlankitError.isInstance(chat.failure) && chat.failure.code).toBe("invalid-approval");
    expect(runs).toHaveLength(1);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
  });

  it("clears its timer when the waiting run ends by itself", async () => {
    const { runtime, runs } = createRuntime({ approvalTimeoutMs: 30 });
    const clock = createManualClock();
    const chat = new TestChat({
      id: "chat_1",
      transport: createChatTransport(runtime, { maxApprovalWaitMs: 60_000, clock }),
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    expect(clock.pending()).toBe(1);
    await until(() => runs[0]?.state.status === "ended");
    await until(() => clock.pending() === 0);
  });

  it("clears its timer when the waiting run is continued, and aborts it when the message is regenerated", async () => {
    const { runtime, runs } = createRuntime();
    const clock = createManualClock();
    const chat = new TestChat({
      id: "chat_1",
      transport: transportPerRender(runtime, { clock }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    expect(clock.pending()).toBe(1);
    await chat.addToolApprovalResponse({ id: requestedApproval(chat, "s2"), approved: true });
    await until(() => runs[0]?.state.status === "ended" && chat.current === "ready");
    expect(clock.pending()).toBe(0);

    await chat.sendMessage({ text: "once more" });
    await until(() => chat.current === "ready" && runs.length === 2);
    expect(clock.pending()).toBe(1);
    await chat.regenerate();
    await until(() => chat.current === "ready" && runs.length === 3);
    expect(runs[1]?.state.reason).toBe("aborted");
    expect(runs[2]?.state.awaitingApproval).toEqual(["s2"]);
    expect(chat.all.map((message) => message.id).slice(1)).toEqual(["run_1", expect.any(String), "run_3"]);
    expect(clock.pending()).toBe(1);
    runs[2]?.abort();
    await until(() => clock.pending() === 0);
    expect(clock.delays).toEqual([1_800_000, 1_800_000, 1_800_000]);
  });

  it("checks maxApprovalWaitMs, and keeps a longer one within what a timer can wait", async () => {
    const { runtime } = createRuntime();
    for (const value of [0, Number.NaN, "60000"]) {
      const error = (() => {
        try {
          createChatTransport(runtime, { maxApprovalWaitMs: value as number });
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(PlankitError.isInstance(error) && error.code).toBe("invalid-options");
    }
    expect(() => createChatTransport(runtime, { maxApprovalWaitMs: 0 })).toThrow(
      "Option maxApprovalWaitMs must be a number of at least 1, got 0",
    );
    const clock = createManualClock();
    const chat = new TestChat({
      id: "chat_1",
      transport: createChatTransport(runtime, { maxApprovalWaitMs: 1e12, clock }),
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    expect(clock.delays).toEqual([2_147_483_647]);
    clock.fire();
  });
});
