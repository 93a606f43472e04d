/**
 * Plans and runs in the page: no server, the tools are browser code, and the
 * run is drawn by `<plankit-run>` from plankit/ui.
 */
import { AgentRuntime, LLMPlanner, ToolRegistry } from "plankit";
import { createScriptedModel } from "plankit/test";
import { createRunStore, type RunElement } from "plankit/ui";

const text = "Plans stream in and run while the model is still writing";

const registry = new ToolRegistry()
  .register({
    name: "sha256",
    description: "The SHA-256 digest of a text, in hex",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
    execute: async ({ text }) => {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
      return { hex: Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("") };
    },
  })
  .register({
    name: "count_words",
    description: "Count the words of a text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
    execute: ({ text }) => {
      const segments = Array.from(new Intl.Segmenter("en", { granularity: "word" }).segment(text));
      return { words: segments.filter((segment) => segment.isWordLike).length };
    },
  });

// Offline: a scripted model writes the plan. In a real app, a model from plankit/ai (`fromLanguageModel`).
const plan = JSON.stringify([
  { id: "s1", tool: "sha256", args: { text } },
  { id: "s2", tool: "count_words", args: { text } },
  { id: "s3", reply: "{{s2.words}} words, SHA-256 {{s1.hex}}" },
]);
const runtime = new AgentRuntime({
  planner: new LLMPlanner({ model: createScriptedModel({ responses: () => plan, tokensPerSecond: 200 }) }),
  registry,
});

const view = document.querySelector<RunElement>("#view");
const form = document.querySelector<HTMLFormElement>("#ask");
form?.addEventListener("submit", (event) => {
  event.preventDefault();
  const query = new FormData(form).get("query");
  if (view !== null && typeof query === "string") view.store = createRunStore(runtime.run(query));
});
