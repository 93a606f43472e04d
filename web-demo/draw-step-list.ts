/**
 * The plan as a list: the graph's text alternative.
 *
 * @module
 */
import type { StepView } from "./to-step-views.ts";

/**
 * Renders (or updates) one list item per step — id, tool, state, timing,
 * note and details — so the plan reads without the graph (screen readers,
 * narrow screens). Items are keyed by `data-step`, updated in place.
 *
 * @param list - the `<ol>`.
 * @param views - the steps, in plan order.
 * @returns nothing.
 *
 * @example
 * ```ts
 * drawStepList(document.querySelector("ol#steps")!, toStepViews(reducer.state));
 * ```
 */
export function drawStepList(list: HTMLOListElement, views: readonly StepView[]): void {
  const existing = new Map<string, HTMLLIElement>();
  for (const item of list.querySelectorAll<HTMLLIElement>("li[data-step]"))
    existing.set(item.dataset["step"] ?? "", item);
  for (const view of views) {
    let item = existing.get(view.id);
    if (item === undefined) {
      item = document.createElement("li");
      item.dataset["step"] = view.id;
      const head = document.createElement("div");
      head.className = "step-head";
      const name = document.createElement("strong");
      const badge = document.createElement("span");
      badge.className = "badge";
      const timing = document.createElement("span");
      timing.className = "timing";
      head.append(name, badge, timing);
      const detail = document.createElement("code");
      const note = document.createElement("p");
      note.className = "note";
      item.append(head, detail, note);
      list.append(item);
    }
    item.dataset["state"] = view.state;
    const [head, detail, note] = [...item.children] as HTMLElement[];
    const [name, badge, timing] = [...(head?.children ?? [])] as HTMLElement[];
    if (name !== undefined) name.textContent = `${view.id} · ${view.label}${view.replanned ? " (re-plan)" : ""}`;
    if (badge !== undefined) badge.textContent = view.state === "approval" ? "needs approval" : view.state;
    if (timing !== undefined) timing.textContent = view.timing;
    if (detail !== undefined) detail.textContent = view.detail;
    if (note !== undefined) {
      note.textContent = view.note;
      note.hidden = view.note === "";
    }
  }
}
