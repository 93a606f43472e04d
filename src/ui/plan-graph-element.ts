/**
 * `<plankit-plan-graph>`: the plan as a graph that grows with the run.
 *
 * @module
 */
import type { RunState, StepState, StepStatus } from "../events/run-state.ts";
import { describeStatus, stepArguments, stepName, stepNote, toLine } from "./describe-step.ts";
import { findStepDependencies } from "./find-step-dependencies.ts";
import { layoutPlanGraph } from "./layout-plan-graph.ts";
import { RunViewElement } from "./run-view-element.ts";

const svgNamespace = "http://www.w3.org/2000/svg";
/** A mark per status, so a narrow box still shows it (the words are in its title). */
const statusMarks: Record<StepStatus, string> = {
  planned: "○",
  running: "▶",
  retrying: "↻",
  succeeded: "✓",
  failed: "✗",
  skipped: "–",
};
/** The average width of a character of the node text, to cut lines before they overflow. */
const characterWidth = 7;

const styles = `
:host { min-width: 0; }
svg { display: block; max-width: 100%; overflow: visible; }
.node rect { fill: var(--_background); stroke: var(--_border); stroke-width: 1.5; }
.node text { fill: var(--_text); font-size: 12px; }
.node .detail { fill: var(--_muted); }
.node[data-status="running"] rect, .node[data-status="retrying"] rect { stroke: var(--_accent); stroke-width: 2.5; }
.node[data-status="succeeded"] rect { stroke: var(--_success); }
.node[data-status="failed"] rect { stroke: var(--_danger); stroke-width: 2.5; }
.node[data-status="skipped"] rect { stroke-dasharray: 4 3; }
.node[data-approval="requested"][data-status="planned"] rect { stroke: var(--_warning); stroke-width: 2.5; }
.edge { fill: none; stroke: var(--_muted); stroke-width: 1.5; }
.arrow { fill: var(--_muted); }
`;

/**
 * Creates an SVG element.
 *
 * @param tag - its tag.
 * @param attributes - its attributes.
 * @param children - its children.
 * @returns the element.
 */
function svg(tag: string, attributes: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const node = document.createElementNS(svgNamespace, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/**
 * Cuts a line to a number of characters, ending it with `…` when cut.
 *
 * @param text - the line.
 * @param length - the most characters.
 * @returns the line.
 */
function fit(text: string, length: number): string {
  const characters = [...text];
  return characters.length <= length ? text : `${characters.slice(0, Math.max(1, length - 1)).join("")}…`;
}

/**
 * The plan of a run as an SVG graph: a box per step, coloured by status,
 * with its id, tool and arguments (cut to the box, whole in its `<title>`),
 * and an arrow from each step to the steps that use it. The layout fits the
 * element's width and is redrawn when it changes.
 *
 * Parts: `graph` (the SVG), `node` (plus `node-<status>`), `edge`.
 */
export class PlanGraphElement extends RunViewElement {
  #width = 0;
  #state: RunState | undefined;
  #observer: ResizeObserver | undefined;

  constructor() {
    super(styles);
  }

  override connectedCallback(): void {
    if (typeof ResizeObserver !== "undefined") {
      this.#observer ??= new ResizeObserver((entries) => {
        const width = Math.floor(entries[0]?.contentRect.width ?? 0);
        if (width === this.#width || width === 0) return;
        this.#width = width;
        this.#draw();
      });
      this.#observer.observe(this);
    }
    super.connectedCallback();
  }

  override disconnectedCallback(): void {
    this.#observer?.disconnect();
    super.disconnectedCallback();
  }

  protected render(state: RunState | undefined): void {
    this.#state = state;
    this.#draw();
  }

  #draw(): void {
    const steps = this.#state?.steps ?? [];
    const width = this.#width || Math.floor(this.getBoundingClientRect().width) || 600;
    const seen = new Set<string>();
    const inputs = steps.map((step) => {
      const input = { id: step.step.id, dependsOn: findStepDependencies(step, seen) };
      seen.add(step.step.id);
      return input;
    });
    const layout = layoutPlanGraph(inputs, width);
    const byId = new Map<string, StepState>(steps.map((step) => [step.step.id, step]));
    const done = steps.filter((step) => step.status === "succeeded").length;
    const graph = svg("svg", {
      part: "graph",
      role: "img",
      "aria-label": steps.length === 0 ? "Plan: no steps yet" : `Plan: ${steps.length} steps, ${done} done`,
      width: layout.width,
      height: layout.height,
      viewBox: `0 0 ${layout.width} ${layout.height}`,
    });
    graph.append(
      svg(
        "defs",
        {},
        svg(
          "marker",
          { id: "arrow", viewBox: "0 0 8 8", refX: 8, refY: 4, markerWidth: 7, markerHeight: 7, orient: "auto" },
          svg("path", { d: "M0 0 L8 4 L0 8 z", class: "arrow" }),
        ),
      ),
    );
    for (const edge of layout.edges) {
      graph.append(
        svg("polyline", {
          class: "edge",
          part: "edge",
          "data-from": edge.from,
          "data-to": edge.to,
          points: edge.points.map((point) => point.join(",")).join(" "),
          "marker-end": "url(#arrow)",
        }),
      );
    }
    for (const node of layout.nodes) {
      const step = byId.get(node.id);
      if (step === undefined) continue;
      const status = step.status;
      const label = `${statusMarks[status]} ${node.id} · ${stepName(step)}`;
      const note = stepNote(step);
      const title = `${label} (${describeStatus(step)})${note === "" ? "" : `: ${note}`}`;
      const detail = toLine(stepArguments(step));
      const length = Math.max(4, Math.floor((node.width - 16) / characterWidth));
      graph.append(
        svg(
          "g",
          {
            class: "node",
            part: `node node-${status}`,
            "data-step": node.id,
            "data-status": status,
            ...(step.approval === undefined ? {} : { "data-approval": step.approval.status }),
            ...(step.source === "replan" ? { "data-source": "replan" } : {}),
          },
          svg("title", {}, detail === "" ? title : `${title}\n${detail}`),
          svg("rect", { x: node.x, y: node.y, width: node.width, height: node.height, rx: 6 }),
          svg("text", { x: node.x + 8, y: node.y + 18 }, fit(label, length)),
          svg("text", { x: node.x + 8, y: node.y + 35, class: "detail" }, fit(detail, length)),
        ),
      );
    }
    const previous = this.root.querySelector("svg");
    if (previous === null) this.root.append(graph);
    else previous.replaceWith(graph);
  }
}
