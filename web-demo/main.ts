/**
 * The web demo's entry point: the request form starts a session run on the
 * Worker (`POST /v1/runs`) or a run in the browser, and `<plankit-run>` of
 * `plankit/ui` shows it from a run store — the plan graph, the approval
 * card, the steps and the reply. The page adds what is its own: the tools,
 * the event timeline, a line on how the answer was made, and the guided
 * conversation panel (`POST /v1/guide`).
 *
 * @module
 */

import type { ToolDescriptor } from "../src/tools.ts";
import { createRunStore, type RunElement, type RunStore } from "../src/ui.ts";
import { createDemoTools } from "../worker/demo/create-demo-tools.ts";
import type { DemoEvent } from "./demo-event.ts";
import { describeAnswer } from "./describe-answer.ts";
import { describeEvent } from "./describe-event.ts";
import { mountGuide } from "./mount-guide.ts";
import { runInBrowser } from "./run-in-browser.ts";
import { startOnWorker } from "./start-on-worker.ts";

/**
 * Finds a required element.
 *
 * @param selector - a CSS selector.
 * @returns the element.
 */
function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`The page has no ${selector}`);
  return found;
}

const form = element<HTMLFormElement>("#request-form");
const query = element<HTMLTextAreaElement>("#query");
const runButton = element<HTMLButtonElement>("#run");
const token = element<HTMLInputElement>("#token");
const modelLine = element<HTMLElement>("#model");
const status = element<HTMLElement>("#status");
const view = element<RunElement>("#run-view");
const answerLine = element<HTMLElement>("#answer-how");
const replyToggle = element<HTMLButtonElement>("#reply-toggle");
const timeline = element<HTMLOListElement>("#timeline");
const toolList = element<HTMLUListElement>("#tools");

let store: RunStore | undefined;
let unsubscribe: (() => void) | undefined;

/**
 * The run mode the page is set to.
 *
 * @returns `worker` or `browser`.
 */
function mode(): "worker" | "browser" {
  return (form.elements.namedItem("mode") as RadioNodeList).value === "browser" ? "browser" : "worker";
}

/**
 * Lists tools with their safety hints.
 *
 * @param descriptors - the tools.
 * @returns nothing.
 */
function showTools(descriptors: readonly ToolDescriptor[]): void {
  toolList.replaceChildren(
    ...descriptors.map((tool) => {
      const item = document.createElement("li");
      const name = document.createElement("code");
      name.textContent = tool.name;
      const hint = document.createElement("span");
      const annotations = tool.annotations ?? {};
      hint.className = annotations.destructiveHint === true ? "hint side-effect" : "hint";
      hint.textContent =
        annotations.destructiveHint === true
          ? "side effects: asks you, then runs after the plan is complete"
          : annotations.readOnlyHint === true
            ? "read-only: may start while the plan streams"
            : "";
      const description = document.createElement("p");
      description.textContent = tool.description;
      item.append(name, " ", hint, description);
      return item;
    }),
  );
}

/**
 * Shows the tools and the model for the current mode: the Worker's (from
 * `GET /v1/tools`) or the bundled demo tools.
 *
 * @returns nothing.
 */
async function describeMode(): Promise<void> {
  if (mode() === "browser") {
    showTools(createDemoTools().list());
    modelLine.textContent = "Model: the offline demo model, running in this browser.";
    return;
  }
  try {
    const headers: Record<string, string> = token.value === "" ? {} : { authorization: `Bearer ${token.value}` };
    const response = await fetch("/v1/tools", { headers });
    if (!response.ok) throw new Error(`${response.status}`);
    const body = (await response.json()) as { model: { name: string }; tools: ToolDescriptor[] };
    showTools(body.tools);
    modelLine.textContent = `Model: ${body.model.name} (on the Worker).`;
  } catch {
    showTools(createDemoTools().list());
    modelLine.textContent = `Model: unknown until the first run (the Worker did not answer GET ${new URL("/v1/tools", location.href).href}).`;
  }
}

/**
 * Adds the store's new events to the timeline, and the model's name to the
 * model line when the Worker's stream names it.
 *
 * @param events - every event so far.
 * @returns nothing.
 */
function logEvents(events: readonly DemoEvent[]): void {
  for (const event of events.slice(timeline.children.length)) {
    const { time, text } = describeEvent(event);
    const item = document.createElement("li");
    item.dataset["type"] = event.type;
    const when = document.createElement("time");
    when.textContent = time;
    item.append(when, " ", text);
    timeline.append(item);
    if (event.type === "model") modelLine.textContent = `Model: ${event.name}.`;
  }
}

/**
 * Shows the run's state beyond the element: the timeline, the line on how
 * the answer was made (a declined request's long reply folded behind it),
 * and the Run button once the run ended.
 *
 * @param shown - the store shown.
 * @returns nothing.
 */
function follow(shown: RunStore): void {
  if (shown !== store) return;
  logEvents(shown.events as readonly DemoEvent[]);
  const state = shown.getSnapshot();
  const answer = describeAnswer(state);
  answerLine.textContent = answer.text;
  answerLine.hidden = answer.text === "";
  view.dataset["answer"] = answer.declined ? "declined" : "";
  replyToggle.hidden = !answer.declined;
  const connection = shown.getConnection().status;
  const reading = connection !== "done" && connection !== "failed" && connection !== "closed";
  runButton.disabled = reading;
  view.setAttribute("aria-busy", String(reading && state.status !== "ended"));
}

/**
 * Runs the request in the box: makes a store for it and gives it to
 * `<plankit-run>`.
 *
 * @returns nothing.
 */
async function run(): Promise<void> {
  const text = query.value.trim();
  if (text === "") {
    status.textContent = "Type a request first.";
    query.focus();
    return;
  }
  const previous = store;
  store = undefined;
  unsubscribe?.();
  if (previous !== undefined && previous.getSnapshot().status === "running" && previous.canStop)
    previous.stop().catch(() => undefined);
  previous?.close();
  timeline.replaceChildren();
  answerLine.hidden = true;
  replyToggle.hidden = true;
  replyToggle.setAttribute("aria-expanded", "false");
  view.dataset["answer"] = "";
  view.dataset["reply"] = "";
  status.textContent = "";
  runButton.disabled = true;
  let next: RunStore;
  try {
    next =
      mode() === "browser"
        ? createRunStore(runInBrowser(text))
        : createRunStore(await startOnWorker(text, { token: token.value }), { token: token.value });
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : String(error);
    runButton.disabled = false;
    return;
  }
  store = next;
  unsubscribe = next.subscribe(() => follow(next));
  view.store = next;
  follow(next);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void run();
});
query.addEventListener("keydown", (event) => {
  // Enter runs; Shift+Enter adds a line.
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    if (!runButton.disabled) form.requestSubmit(runButton);
  }
});
replyToggle.addEventListener("click", () => {
  const open = view.dataset["reply"] !== "open";
  view.dataset["reply"] = open ? "open" : "";
  replyToggle.setAttribute("aria-expanded", String(open));
  replyToggle.textContent = open ? "Fold the reply" : "Show the whole reply";
});
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-example]")) {
  button.addEventListener("click", () => {
    query.value = button.dataset["example"] ?? "";
    query.focus();
  });
}
for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="mode"]'))
  radio.addEventListener("change", () => void describeMode());
token.addEventListener("change", () => void describeMode());
void describeMode();
mountGuide(() => token.value);
