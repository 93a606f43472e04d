/**
 * Bundled for Chromium by `use-chat-approval.node.test.ts`: a React page
 * whose component calls `useChat` from `@ai-sdk/react` with
 * `createChatTransport(runtime)` written in its body, as the docs show, so
 * every render makes a new transport. The runtime plans with a scripted
 * model: look up the weather (read-only), save a note (needs approval),
 * reply; `?approvalTimeoutMs=…` sets the runtime's approval timeout.
 *
 * @module
 */
import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { createElement as h, StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { createChatTransport } from "../../../src/ai.ts";
import { AgentRuntime, LLMPlanner, ToolRegistry } from "../../../src/index.ts";
import { createScriptedModel } from "../../../src/test.ts";

/** What the page counted, for the test to read. */
export interface PageReport {
  /** Calls of each tool. */
  toolCalls: Record<string, number>;
  /** Runs the runtime started. */
  runs: number;
  /** Of those, the runs that ended, with their end reasons. */
  ended: string[];
  /** Renders of the chat component, each with a transport of its own. */
  renders: number;
  /** The `finishReason` of each response, as `onFinish` saw it (`null` for none). */
  finishReasons: (string | null)[];
  /** Errors the chat reported. */
  errors: string[];
}

const report: PageReport = {
  toolCalls: { weather: 0, save_note: 0 },
  runs: 0,
  ended: [],
  renders: 0,
  finishReasons: [],
  errors: [],
};
(globalThis as { chatPageReport?: PageReport }).chatPageReport = report;

const registry = new ToolRegistry().register([
  {
    name: "weather",
    description: "Current weather in a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    annotations: { readOnlyHint: true },
    execute: ({ city }) => {
      report.toolCalls["weather"] = (report.toolCalls["weather"] ?? 0) + 1;
      return { city, celsius: 21 };
    },
  },
  {
    name: "save_note",
    description: "Save a note for the user",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: ({ text }) => {
      report.toolCalls["save_note"] = (report.toolCalls["save_note"] ?? 0) + 1;
      return { saved: String(text).length };
    },
  },
]);
const plan = JSON.stringify([
  { id: "s1", tool: "weather", args: { city: "Paris" } },
  { id: "s2", tool: "save_note", args: { text: "Paris: {{s1.celsius}} °C" } },
  { id: "s3", reply: "Saved a note of {{s2.saved}} characters." },
]);
// `?approvalTimeoutMs=…` gives the runtime an approval timeout, for a run that ends before the answer.
const approvalTimeoutMs = Number(new URLSearchParams(location.search).get("approvalTimeoutMs") ?? Number.NaN);
// Made once, outside the component: the waiting runs are kept by it.
const runtime = new AgentRuntime({
  planner: new LLMPlanner({ model: createScriptedModel({ responses: [plan, plan, plan] }) }),
  registry,
  memory: false,
  policy: { save_note: { approval: "plan" } },
  idGenerator: () => `run_${++report.runs}`,
  ...(Number.isNaN(approvalTimeoutMs) ? {} : { approvalTimeoutMs }),
});
// Counts the ends of the runs, which nothing on the page reads while a run waits.
const run = runtime.run.bind(runtime);
runtime.run = (...args) => {
  const handle = run(...args);
  void handle.done.then((state) => report.ended.push(state.reason ?? "none"));
  return handle;
};

/**
 * One part of a message: text, or a tool call with its state and, while it
 * waits, an Approve button.
 */
function Part(props: { part: UIMessage["parts"][number]; onApprove: (id: string) => void }) {
  const { part } = props;
  if (part.type === "text") return h("p", { className: "text" }, part.text);
  if (part.type !== "dynamic-tool") return null;
  const approve =
    part.state === "approval-requested"
      ? h(
          "button",
          { type: "button", "data-approve": part.toolCallId, onClick: () => props.onApprove(part.approval.id) },
          `Approve ${part.toolName}`,
        )
      : null;
  return h(
    "div",
    { className: "tool", "data-step": part.toolCallId, "data-state": part.state },
    `${part.toolName}: ${part.state}`,
    approve,
  );
}

/** The chat, written as the docs show it. */
function Chat() {
  report.renders++;
  const [input, setInput] = useState("");
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport: createChatTransport(runtime),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ finishReason }) => void report.finishReasons.push(finishReason ?? null),
    onError: (chatError) => void report.errors.push(chatError.message),
  });
  return h(
    "main",
    { "data-status": status },
    messages.map((message) =>
      h(
        "section",
        { key: message.id, className: message.role, "data-id": message.id },
        message.parts.map((part, index) =>
          h(Part, { key: index, part, onApprove: (id) => void addToolApprovalResponse({ id, approved: true }) }),
        ),
      ),
    ),
    error === undefined ? null : h("p", { className: "error" }, error.message),
    h(
      "form",
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          void sendMessage({ text: input });
          setInput("");
        },
      },
      h("input", {
        name: "message",
        value: input,
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h("button", { type: "submit" }, "Send"),
    ),
  );
}

const container = document.createElement("div");
document.body.append(container);
createRoot(container).render(h(StrictMode, null, h(Chat)));
