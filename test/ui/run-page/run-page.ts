/**
 * Bundled for Chromium by `run-elements.node.test.ts`: mounts
 * `<plankit-run>` for recorded events, for a live run of an `AgentRuntime`
 * in the page, or inside a React 19 page with `useRun`, and reports what the
 * tests check (layout, tool calls, axe-core's findings).
 *
 * @module
 */
import axe from "axe-core";
import { createElement as h, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import type { RuntimeEvent } from "../../../src/index.ts";
import { useRun } from "../../../src/react.ts";
import { createRunStore, type RunStore } from "../../../src/ui.ts";
import { createDemoRuntime, type ToolLog } from "./demo-runtime.ts";

/** The drawn graph, in the SVG's coordinates. */
export interface DrawnGraph {
  svgWidth: number;
  nodes: { id: string; x: number; y: number; width: number; height: number; title: string; shown: string[] }[];
  edges: { from: string; to: string; points: [number, number][] }[];
  /** Elements (across shadow roots) whose right edge passes the viewport. */
  overflowing: string[];
  viewportWidth: number;
  documentWidth: number;
}

/** What the page offers the test. */
export interface RunPage {
  showRecorded(events: RuntimeEvent[]): Promise<void>;
  startLive(plan: object[]): void;
  mountReact(events: RuntimeEvent[]): void;
  drawnGraph(): DrawnGraph;
  axe(): Promise<{ id: string; impact: string | null | undefined; nodes: string[] }[]>;
  toolLog: ToolLog;
  store: RunStore | undefined;
  decisions: unknown[];
  renders: number;
}

const main = document.querySelector("#view") as HTMLElement;

/** Events one by one, as a live stream would bring them. */
async function* iterate(events: readonly RuntimeEvent[]): AsyncGenerator<RuntimeEvent> {
  for (const event of events) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    yield event;
  }
}

/** Every element below a root, shadow trees included. */
function allElements(root: Element | ShadowRoot): Element[] {
  const found: Element[] = [];
  for (const child of root.querySelectorAll("*")) {
    found.push(child);
    if (child.shadowRoot !== null) found.push(...allElements(child.shadowRoot));
  }
  return found;
}

const page: RunPage = {
  toolLog: [],
  store: undefined,
  decisions: [],
  renders: 0,
  async showRecorded(events) {
    const store = createRunStore(iterate(events));
    const view = document.createElement("plankit-run");
    view.store = store;
    main.replaceChildren(view);
    page.store = store;
    await store.done;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  },
  startLive(plan) {
    const run = createDemoRuntime(plan, page.toolLog).run("Note the facts about Paris");
    const store = createRunStore(run);
    const view = document.createElement("plankit-run");
    view.addEventListener("plankit-decision", (event) => page.decisions.push((event as CustomEvent).detail.decision));
    view.store = store;
    main.replaceChildren(view);
    page.store = store;
  },
  mountReact(events) {
    const source = createRunStore(iterate(events), { lazy: true });
    page.store = source;
    function App() {
      const { state, store } = useRun(source);
      page.renders++;
      return h(
        "section",
        { "aria-label": "React run" },
        h("p", { className: "react-status" }, `${state.status}: ${state.steps.length} steps`),
        h("plankit-run", { store }),
      );
    }
    main.replaceChildren();
    createRoot(main).render(h(StrictMode, null, h(App)));
  },
  drawnGraph() {
    const run = document.querySelector("plankit-run");
    const graph = run?.shadowRoot?.querySelector("plankit-plan-graph")?.shadowRoot;
    const svg = graph?.querySelector("svg");
    const number = (element: Element, name: string) => Number(element.getAttribute(name));
    const nodes = [...(graph?.querySelectorAll("g.node") ?? [])].map((node) => {
      const rect = node.querySelector("rect") as SVGRectElement;
      return {
        id: node.getAttribute("data-step") ?? "",
        x: number(rect, "x"),
        y: number(rect, "y"),
        width: number(rect, "width"),
        height: number(rect, "height"),
        title: node.querySelector("title")?.textContent ?? "",
        shown: [...node.querySelectorAll("text")].map((text) => text.textContent ?? ""),
      };
    });
    const edges = [...(graph?.querySelectorAll("polyline.edge") ?? [])].map((edge) => ({
      from: edge.getAttribute("data-from") ?? "",
      to: edge.getAttribute("data-to") ?? "",
      points: (edge.getAttribute("points") ?? "")
        .split(" ")
        .map((pair) => pair.split(",").map(Number) as [number, number]),
    }));
    const overflowing = allElements(document.body)
      .filter((element) => element.getBoundingClientRect().right > innerWidth + 0.5)
      .map(
        (element) =>
          element.tagName.toLowerCase() +
          (element.getAttribute("part") === null ? "" : `[part=${element.getAttribute("part")}]`),
      );
    return {
      svgWidth: svg === null || svg === undefined ? 0 : number(svg, "width"),
      nodes,
      edges,
      overflowing,
      viewportWidth: innerWidth,
      documentWidth: document.documentElement.scrollWidth,
    };
  },
  async axe() {
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => `${JSON.stringify(node.target)}: ${node.failureSummary ?? ""}`),
    }));
  },
};
(globalThis as { runPage?: RunPage }).runPage = page;

/** The JSX types of `plankit/react` give the run elements a typed `store`. */
const typedProps: import("react").JSX.IntrinsicElements["plankit-run"] = {
  store: createRunStore(iterate([]), { lazy: true }),
  className: "run",
};
void typedProps;
