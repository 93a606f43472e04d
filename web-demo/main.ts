/**
 * The web demo's entry point: wires the page to a session run on the
 * Worker (`POST /v1/runs`) or a run in the browser, draws the plan as it
 * streams, and shows the approval card when the run asks a person; mounts
 * the guided conversation panel (`POST /v1/guide`).
 *
 * @module
 */

import type { ApprovalRequestEvent } from "../src/events.ts";
import { createRunState } from "../src/events.ts";
import type { RuntimeEvent } from "../src/index.ts";
import type { ToolDescriptor } from "../src/tools.ts";
import { createDemoTools } from "../worker/demo/create-demo-tools.ts";
import type { DemoEvent } from "./demo-event.ts";
import type { DemoRun } from "./demo-run.ts";
import { describeEvent } from "./describe-event.ts";
import { describeRunStatus } from "./describe-run-status.ts";
import { drawStepList } from "./draw-step-list.ts";
import { mountApprovalCard } from "./mount-approval-card.ts";
import { mountGuide } from "./mount-guide.ts";
import { renderDag } from "./render-dag.ts";
import { runInBrowser } from "./run-in-browser.ts";
import { runOnWorker } from "./run-on-worker.ts";
import { stopStepViews } from "./stop-step-views.ts";
import { toApprovalCard } from "./to-approval-card.ts";
import { type StepView, toStepViews } from "./to-step-views.ts";

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
const stopButton = element<HTMLButtonElement>("#stop");
const token = element<HTMLInputElement>("#token");
const modelLine = element<HTMLElement>("#model");
const status = element<HTMLElement>("#status");
const planSection = element<HTMLElement>("#plan");
const graph = element<SVGSVGElement>("#dag");
const stepList = element<HTMLOListElement>("#steps");
const reply = element<HTMLElement>("#reply");
const timeline = element<HTMLOListElement>("#timeline");
const toolList = element<HTMLUListElement>("#tools");

let controller: AbortController | undefined;
let activeRun: DemoRun | undefined;
let tools: readonly ToolDescriptor[] = [];
const approvalCard = mountApprovalCard(element<HTMLElement>("#approval"), (decisions) =>
  activeRun === undefined
    ? Promise.reject(new Error("No run is waiting for a decision"))
    : activeRun.approve(decisions),
);

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
 * @param tools - the descriptors.
 * @returns nothing.
 */
function showTools(descriptors: readonly ToolDescriptor[]): void {
  tools = descriptors;
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
          ? "side effects: runs after the plan is complete"
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
 * Adds a line to the timeline.
 *
 * @param event - the event.
 * @returns nothing.
 */
function logEvent(event: DemoEvent): void {
  const { time, text } = describeEvent(event);
  const item = document.createElement("li");
  item.dataset["type"] = event.type;
  const when = document.createElement("time");
  when.textContent = time;
  item.append(when, " ", text);
  timeline.append(item);
}

/**
 * Runs the request in the box, drawing every event.
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
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  const reducer = createRunState();
  graph.replaceChildren();
  stepList.replaceChildren();
  timeline.replaceChildren();
  reply.textContent = "";
  reply.dataset["state"] = "pending";
  runButton.disabled = true;
  stopButton.disabled = false;
  planSection.setAttribute("aria-busy", "true");
  status.textContent = "Planning…";
  approvalCard.show(undefined);
  let views: StepView[] = [];
  let request: ApprovalRequestEvent | undefined;
  const show = (next: StepView[]): void => {
    views = next;
    renderDag(graph, views);
    drawStepList(stepList, views);
  };
  const stopped = (): void => {
    show(stopStepViews(views));
    if (request !== undefined) approvalCard.show(toApprovalCard(request, reducer.state, { tools, stopped: true }));
    status.textContent = "Stopped.";
    reply.textContent = "Stopped.";
    reply.dataset["state"] = "stopped";
  };
  const demoRun = mode() === "browser" ? runInBrowser(text, signal) : runOnWorker(text, { token: token.value, signal });
  activeRun = demoRun;
  try {
    for await (const event of demoRun.events) {
      if (signal.aborted) break;
      logEvent(event);
      if (event.type === "model") {
        modelLine.textContent = `Model: ${event.name}.`;
        continue;
      }
      if (event.type === "error") {
        status.textContent = `The stream failed: ${event.message}`;
        reply.textContent = `No reply: ${event.message}`;
        reply.dataset["state"] = "failed";
        continue;
      }
      reducer.apply(event as RuntimeEvent);
      show(toStepViews(reducer.state));
      status.textContent = describeRunStatus(reducer.state);
      if (event.type === "approval-request") request = event;
      if (request !== undefined) approvalCard.show(toApprovalCard(request, reducer.state, { tools }));
      if (event.type === "reply-delta") {
        // The reply as it is written; the final `reply` event replaces it with the whole text.
        if (reply.dataset["state"] !== "streaming") reply.textContent = "";
        reply.dataset["state"] = "streaming";
        reply.append(event.delta);
      }
      if (event.type === "reply") {
        reply.textContent = event.text;
        reply.dataset["state"] = "done";
      }
      if (event.type === "run-end") {
        if (reply.dataset["state"] === "streaming") reply.dataset["state"] = "done";
        if (event.reason === "aborted") stopped();
        else if (event.reason !== "completed") reply.dataset["state"] = "failed";
      }
    }
    if (signal.aborted) stopped();
  } catch (error) {
    if (signal.aborted) stopped();
    else {
      const message = error instanceof Error ? error.message : String(error);
      status.textContent = message;
      reply.textContent = `No reply: ${message}`;
      reply.dataset["state"] = "failed";
    }
  } finally {
    if (activeRun === demoRun) activeRun = undefined;
    runButton.disabled = false;
    stopButton.disabled = true;
    planSection.setAttribute("aria-busy", "false");
  }
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
stopButton.addEventListener("click", () => controller?.abort(new Error("Stopped by the user")));
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
