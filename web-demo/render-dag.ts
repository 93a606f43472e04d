/**
 * Draws the plan graph as SVG.
 *
 * @module
 */
import { layoutDag } from "./layout-dag.ts";
import type { StepView } from "./to-step-views.ts";

const svgNamespace = "http://www.w3.org/2000/svg";
const nodeWidth = 168;
const nodeHeight = 64;
const margin = 8;

/**
 * Creates an SVG element with attributes.
 *
 * @param name - the tag name.
 * @param attributes - its attributes.
 * @returns the element.
 */
function svgElement(name: string, attributes: Record<string, string | number> = {}): SVGElement {
  const element = document.createElementNS(svgNamespace, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/**
 * Shortens text to fit a node.
 *
 * @param text - the text.
 * @param length - the most characters.
 * @returns the text, with an ellipsis when cut.
 */
function fit(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * Draws (or updates) the plan graph: one `<g data-step-id="…"
 * data-state="…">` per step, laid out by {@link layoutDag}, with arrows from
 * each step to the steps that use its result. Existing nodes are updated in
 * place (and slide to their new position), new nodes fade in, so the graph
 * visibly grows while the plan streams. Each node carries an `aria-label`
 * and a `<title>` with its full state.
 *
 * @param svg - the `<svg>` to draw into.
 * @param views - the steps, in plan order.
 * @returns nothing.
 *
 * @example
 * ```ts
 * renderDag(document.querySelector("svg")!, toStepViews(reducer.state));
 * ```
 */
export function renderDag(svg: SVGSVGElement, views: readonly StepView[]): void {
  const layout = layoutDag(views, { nodeWidth, nodeHeight });
  const width = Math.max(layout.width, nodeWidth) + margin * 2;
  const height = Math.max(layout.height, 1) + margin * 2;
  svg.setAttribute("viewBox", `${-margin} ${-margin} ${width} ${height}`);
  svg.style.setProperty("--graph-width", `${width}px`);
  if (svg.querySelector("defs") === null) {
    const defs = svgElement("defs");
    const marker = svgElement("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
    marker.append(svgElement("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }));
    defs.append(marker);
    svg.append(defs, svgElement("g", { class: "edges" }), svgElement("g", { class: "nodes" }));
  }
  const edgeGroup = svg.querySelector("g.edges") as SVGGElement;
  const nodeGroup = svg.querySelector("g.nodes") as SVGGElement;
  const position = new Map(layout.nodes.map((node) => [node.id, node]));

  edgeGroup.replaceChildren(
    ...layout.edges.map((edge) => {
      const from = position.get(edge.from);
      const to = position.get(edge.to);
      // Arrows that skip a layer pass behind other nodes: drawn lighter, dashed.
      const long = from !== undefined && to !== undefined && to.layer - from.layer > 1;
      const path = svgElement("path", { class: long ? "edge long" : "edge", "marker-end": "url(#arrow)", "data-from": edge.from, "data-to": edge.to });
      if (from !== undefined && to !== undefined) {
        const startY = from.y + nodeHeight / 2;
        const endY = to.y - nodeHeight / 2 - 2;
        const middle = (startY + endY) / 2;
        path.setAttribute("d", `M ${from.x} ${startY} C ${from.x} ${middle}, ${to.x} ${middle}, ${to.x} ${endY}`);
      }
      return path;
    }),
  );

  const existing = new Map<string, SVGGElement>();
  for (const element of nodeGroup.querySelectorAll<SVGGElement>("g[data-step-id]")) existing.set(element.dataset["stepId"] ?? "", element);
  for (const view of views) {
    const place = position.get(view.id);
    if (place === undefined) continue;
    let group = existing.get(view.id);
    if (group === undefined) {
      group = svgElement("g", { "data-step-id": view.id, class: "node entering", role: "img" }) as SVGGElement;
      group.append(
        svgElement("title"),
        svgElement("rect", { x: -nodeWidth / 2, y: -nodeHeight / 2, width: nodeWidth, height: nodeHeight, rx: 10 }),
        svgElement("text", { class: "node-title", x: -nodeWidth / 2 + 10, y: -nodeHeight / 2 + 19 }),
        svgElement("text", { class: "node-detail", x: -nodeWidth / 2 + 10, y: -nodeHeight / 2 + 36 }),
        svgElement("text", { class: "node-state", x: -nodeWidth / 2 + 10, y: -nodeHeight / 2 + 53 }),
      );
      nodeGroup.append(group);
      const entering = group;
      requestAnimationFrame(() => entering.classList.remove("entering"));
    }
    group.setAttribute("transform", `translate(${place.x} ${place.y})`);
    group.dataset["state"] = view.state;
    group.classList.toggle("replanned", view.replanned);
    const [title, , heading, detail, state] = [...group.children] as SVGElement[];
    const status = [view.state, view.timing].filter((part) => part !== "").join(" · ");
    if (heading !== undefined) heading.textContent = fit(`${view.id} · ${view.label}`, 24);
    if (detail !== undefined) detail.textContent = fit(view.detail, 28);
    if (state !== undefined) state.textContent = fit(status, 30);
    const full = `${view.id} ${view.label}: ${status}${view.note === "" ? "" : ` (${view.note})`}. ${view.detail}`;
    if (title !== undefined) title.textContent = full;
    group.setAttribute("aria-label", full);
  }
}
