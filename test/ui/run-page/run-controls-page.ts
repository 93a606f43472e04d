/**
 * Bundled for Chromium by `run-controls.node.test.ts`: one `<plankit-run>`
 * that shows live runs of an `AgentRuntime` planned by the scripted model,
 * one after another, as a page that reuses its view does. A read-only
 * `lookup` fails for the topic `down`; `hold` waits until the test releases
 * it; `save_note` needs a person's approval.
 *
 * @module
 */
import { AgentRuntime, LLMPlanner, noOpReflector, ToolRegistry } from "../../../src/index.ts";
import { createScriptedModel } from "../../../src/test.ts";
import { createRunStore, type RunStore } from "../../../src/ui.ts";

/** What the page offers the test. */
export interface RunControlsPage {
  /**
   * Shows a new run in the same view.
   *
   * @param plan - the steps the model writes first.
   * @param replan - the steps it writes when asked to re-plan.
   */
  start(plan: object[], replan?: object[]): void;
  /** Lets every waiting `hold` call end. */
  release(): void;
  store: RunStore | undefined;
}

let held: (() => void)[] = [];
const registry = new ToolRegistry().register([
  {
    name: "lookup",
    description: "Look a fact up",
    inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
    annotations: { readOnlyHint: true },
    execute: async ({ topic }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (topic === "down") throw new Error("the fact service is down (503)");
      return { value: `facts about ${topic}` };
    },
  },
  {
    name: "hold",
    description: "Wait until released",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
    execute: () => new Promise<{ released: boolean }>((resolve) => held.push(() => resolve({ released: true }))),
  },
  {
    name: "save_note",
    description: "Save a note for the user",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: ({ text }) => ({ saved: String(text).length }),
  },
]);
const view = document.createElement("plankit-run");
document.body.append(view);

const page: RunControlsPage = {
  store: undefined,
  start(plan, replan = [{ id: "r1", reply: "Nothing was saved." }]) {
    const model = createScriptedModel({
      responses: { plan: () => JSON.stringify(plan), replan: () => JSON.stringify(replan) },
    });
    const runtime = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry,
      memory: false,
      reflector: noOpReflector,
      retries: 0,
      integrate: "template",
      policy: { save_note: { approval: "plan" } },
    });
    const store = createRunStore(runtime.run("Note the facts"));
    page.store = store;
    view.store = store;
  },
  release() {
    const waiting = held;
    held = [];
    for (const resolve of waiting) resolve();
  },
};
(globalThis as { runControls?: RunControlsPage }).runControls = page;
