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
/** Room around the graph: arrows that go around a full row pass there. */
const margin = 16;

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
/**
 * Draws an arrow through its points: straight down through a layer,
 * curved in the gaps between layers (where no node is).
 *
 * @param points - from the source's bottom to the target's top.
 * @returns the path data.
 */
function toPathData(points: readonly { x: number; y: number }[]): string {
  const [start, ...rest] = points;
  if (start === undefined) return "";
  let data = `M ${start.x} ${start.y}`;
  let previous = start;
  for (const [index, point] of rest.entries()) {
    // The arrow head ends just above the target.
    const y = index === rest.length - 1 ? point.y - 2 : point.y;
    if (point.x === previous.x) data += ` L ${point.x} ${y}`;
    else {
      const middle = (previous.y + y) / 2;
      data += ` C ${previous.x} ${middle}, ${point.x} ${middle}, ${point.x} ${y}`;
    }
    previous = point;
  }
  return data;
}

/**
 * Sets a text element to `text`, cut with an ellipsis to fit `width`
 * pixels as rendered (wide scripts included); the whole text stays in the
 * node's title and label.
 *
 * @param element - the text element.
 * @param text - the text.
 * @param width - the room, in pixels.
 * @returns nothing.
 */
function fitText(element: SVGElement, text: string, width: number): void {
  element.textContent = text;
  const measure = (element as SVGTextContentElement).getComputedTextLength?.bind(element as SVGTextContentElement);
  if (measure === undefined) return;
  if (measure() <= width) return;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    element.textContent = `${text.slice(0, middle)}…`;
    if (measure() <= width) low = middle;
    else high = middle - 1;
  }
  element.textContent = `${text.slice(0, low)}…`;
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
    const marker = svgElement("marker", {
      id: "arrow",
      viewBox: "0 0 10 10",
      refX: 9,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: "auto-start-reverse",
    });
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
      // Arrows that skip a layer go around the nodes in between: drawn lighter, dashed.
      const long = from !== undefined && to !== undefined && to.layer - from.layer > 1;
      const path = svgElement("path", {
        class: long ? "edge long" : "edge",
        "marker-end": "url(#arrow)",
        "data-from": edge.from,
        "data-to": edge.to,
      });
      path.setAttribute("d", toPathData(edge.points));
      return path;
    }),
  );

  const existing = new Map<string, SVGGElement>();
  for (const element of nodeGroup.querySelectorAll<SVGGElement>("g[data-step-id]"))
    existing.set(element.dataset["stepId"] ?? "", element);
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
    const status = [view.state === "approval" ? "needs approval" : view.state, view.timing]
      .filter((part) => part !== "")
      .join(" · ");
    const room = nodeWidth - 20;
    if (heading !== undefined) fitText(heading, `${view.id} · ${view.label}`, room);
    if (detail !== undefined) fitText(detail, view.detail, room);
    if (state !== undefined) fitText(state, status, room);
    const full = `${view.id} ${view.label}: ${status}${view.note === "" ? "" : ` (${view.note})`}. ${view.detail}`;
    if (title !== undefined) title.textContent = full;
    group.setAttribute("aria-label", full);
  }
}
