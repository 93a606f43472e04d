/**
 * Approvals through the AI SDK UI: tool-approval parts, and a chat whose
 * addToolApprovalResponse answers reach the run through createChatTransport.
 */
import {
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { describe, expect, it } from "vitest";
import { approvalIdOf, createChatTransport, fromUIApprovalResponses, toUIMessageStream } from "../../src/ai.ts";
import { AgentRuntime, noOpReflector, type RunHandle } from "../../src/index.ts";
import { createFakePlanner, deferred, reply, tool } from "../runtime/fake-planner.ts";
import { createTestRegistry } from "../runtime/test-tools.ts";
import { TestChat, until } from "./test-chat.ts";

/** A runtime whose plan is: look up, send (approval), remove (approval), reply. */
function createRuntime(runs: RunHandle[]) {
  const { registry, calls } = createTestRegistry();
  const planner = createFakePlanner({
    steps: [
      tool("s1", "lookup", { q: "tokyo" }),
      tool("s2", "send", { to: "ann", text: "{{s1.value}}" }),
      tool("s3", "remove", { id: "r1" }),
      reply("s4", "sent {{s2.sent}}"),
    ],
  });
  const runtime = new AgentRuntime({
    planner,
    registry,
    memory: false,
    reflector: noOpReflector,
    integrate: "template",
    policy: { send: { approval: "plan" }, remove: { approval: "plan" } },
    idGenerator: () => `run_${runs.length + 1}`,
  });
  return {
    calls,
    runtime: {
      run: (...args: Parameters<AgentRuntime["run"]>) => {
        const run = runtime.run(...args);
        runs.push(run);
        return run;
      },
    },
  };
}

describe("approvals as UI message stream tool-approval parts", () => {
  it("puts each listed step in approval-requested with its known arguments, then answers, denies and outputs", async () => {
    const runs: RunHandle[] = [];
    const { runtime } = createRuntime(runs);
    const run = runtime.run("go");
    const gate = deferred();
    const iterator = run[Symbol.asyncIterator]();
    void (async () => {
      while (!run.waitingForApproval) await iterator.next();
      gate.resolve();
    })();
    await gate.promise;
    run.approve([
      { stepId: "s2", approved: true },
      { stepId: "s3", approved: false, reason: "keep it" },
    ]);
    await run.done;
    const chunks: UIMessageChunk[] = [];
    const reader = toUIMessageStream(run).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const approvalChunks = chunks.filter(
      (chunk) => chunk.type.startsWith("tool-approval") || chunk.type === "tool-output-denied",
    );
    expect(approvalChunks).toEqual([
      {
        type: "tool-approval-request",
        approvalId: approvalIdOf("run_1", "a1", "s2"),
        toolCallId: "s2",
        approvalDescriptor: { requestId: "a1", mode: "plan", waiting: [] },
      },
      {
        type: "tool-approval-request",
        approvalId: approvalIdOf("run_1", "a1", "s3"),
        toolCallId: "s3",
        approvalDescriptor: { requestId: "a1", mode: "plan", waiting: [] },
      },
      { type: "tool-approval-response", approvalId: "run_1:a1:s2", approved: true, providerExecuted: true },
      {
        type: "tool-approval-response",
        approvalId: "run_1:a1:s3",
        approved: false,
        reason: "keep it",
        providerExecuted: true,
      },
      { type: "tool-output-denied", toolCallId: "s3" },
    ]);
    const before = chunks.findIndex((chunk) => chunk.type === "tool-approval-request");
    expect(chunks[before - 1]).toMatchObject({
      type: "tool-input-available",
      toolCallId: "s2",
      input: { to: "ann", text: "tokyo!" },
    });
    let message: UIMessage | undefined;
    for await (const state of readUIMessageStream<UIMessage>({
      stream: toUIMessageStream(run),
      terminateOnError: true,
    }))
      message = state;
    const parts = message?.parts.filter((part) => part.type === "dynamic-tool") ?? [];
    expect(parts.map((part) => [part.toolCallId, part.state])).toEqual([
      ["s1", "output-available"],
      ["s2", "output-available"],
      ["s3", "output-denied"],
    ]);
  });

  it("reads the chat's answers for the request the run waits on, and ignores stale or foreign ones", async () => {
    const runs: RunHandle[] = [];
    const { runtime } = createRuntime(runs);
    const run = runtime.run("go");
    await until(() => run.waitingForApproval);
    const message = {
      id: "run_1",
      role: "assistant",
      parts: [
        {
          type: "dynamic-tool",
          toolCallId: "s2",
          state: "approval-responded",
          approval: { id: "run_1:a1:s2", approved: false, reason: "no" },
        },
        {
          type: "dynamic-tool",
          toolCallId: "s3",
          state: "approval-responded",
          approval: { id: "run_0:a1:s3", approved: true },
        },
        {
          type: "dynamic-tool",
          toolCallId: "s1",
          state: "approval-responded",
          approval: { id: "run_1:a1:s1", approved: true },
        },
      ],
    };
    expect(fromUIApprovalResponses(message, run.state)).toEqual([{ stepId: "s2", approved: false, reason: "no" }]);
    expect(fromUIApprovalResponses({ parts: "x" }, run.state)).toEqual([]);
    run.abort();
  });
});

describe("createChatTransport: approve and deny from a chat's addToolApprovalResponse", () => {
  it("ends the stream while the run waits, forwards the answers into run.approve, and continues the same message", async () => {
    const runs: RunHandle[] = [];
    const { runtime, calls } = createRuntime(runs);
    const chat = new TestChat({
      id: "chat_1",
      transport: createChatTransport(runtime),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "mail ann the weather" });
    await until(() => chat.current === "ready");
    const assistant = chat.all[1];
    expect(assistant?.id).toBe("run_1");
    const waiting =
      assistant?.parts.filter((part) => part.type === "dynamic-tool" && part.state === "approval-requested") ?? [];
    expect(waiting.map((part) => (part as { toolCallId: string }).toolCallId)).toEqual(["s2", "s3"]);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    expect(runs[0]?.state.status).toBe("running");

    // One answer is not enough: nothing is sent, the run keeps waiting.
    const ids = waiting.map((part) => (part as { approval: { id: string } }).approval.id);
    await chat.addToolApprovalResponse({ id: ids[0]!, approved: true });
    expect(runs[0]?.state.awaitingApproval).toEqual(["s2", "s3"]);
    await chat.addToolApprovalResponse({ id: ids[1]!, approved: false, reason: "not that one" });
    await until(() => runs[0]?.state.status === "ended" && chat.current === "ready");

    expect(runs).toHaveLength(1);
    expect(calls.map((call) => call.name)).toEqual(["lookup", "send"]);
    expect(runs[0]?.state.steps[2]).toMatchObject({
      status: "skipped",
      skip: { code: "denied", reason: "not that one" },
    });
    expect(chat.all).toHaveLength(2);
    const final = chat.all[1]!;
    expect(final.id).toBe("run_1");
    expect(
      final.parts
        .filter((part) => part.type === "dynamic-tool")
        .map((part) => [(part as { toolCallId: string }).toolCallId, part.state]),
    ).toEqual([
      ["s1", "output-available"],
      ["s2", "output-available"],
      ["s3", "output-denied"],
    ]);
    expect(final.parts.filter((part) => part.type === "text").map((part) => (part as { text: string }).text)).toEqual([
      "sent ann",
    ]);
  });
});
