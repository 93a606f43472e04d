/**
 * `<plankit-steps>`: the steps of a run as an accessible list.
 *
 * @module
 */
import type { RunState, StepState } from "../events/run-state.ts";
import { describeStatus, stepArguments, stepName, stepNote, toLine } from "./describe-step.ts";
import { element, RunViewElement } from "./run-view-element.ts";

const styles = `
ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
li { display: grid; grid-template-columns: auto auto minmax(0, 1fr); gap: 2px 8px; align-items: baseline; padding: 6px 8px; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_background); }
.status { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; color: var(--_muted); }
li[data-status="running"] .status, li[data-status="retrying"] .status { color: var(--_accent); }
li[data-status="succeeded"] .status { color: var(--_success); }
li[data-status="failed"] .status { color: var(--_danger); }
.id { font-weight: 600; }
.name { overflow-wrap: anywhere; }
.arguments { grid-column: 1 / -1; font: 12px/1.4 ui-monospace, monospace; color: var(--_muted); overflow-wrap: anywhere; white-space: pre-wrap; }
.note { grid-column: 1 / -1; overflow-wrap: anywhere; }
li[data-status="failed"] .note { color: var(--_danger); }
`;

/**
 * The steps of a run in plan order: each with its status in words, id,
 * tool, the arguments it runs with (a person's edited arguments once
 * approved) and what became of it (error, skip reason, approval). A step
 * whose state did not change is not redrawn.
 *
 * Parts: `list`, `step` (plus `step-<status>`), `status`, `arguments`, `note`.
 */
export class StepsElement extends RunViewElement {
  readonly #list = element("ol", { part: "list", "aria-label": "Steps" });
  readonly #items = new Map<string, { state: StepState; item: HTMLLIElement }>();

  constructor() {
    super(styles);
    this.root.append(this.#list);
  }

  protected render(state: RunState | undefined): void {
    const steps = state?.steps ?? [];
    const keep = new Set<string>();
    let previous: HTMLLIElement | undefined;
    for (const step of steps) {
      const key = `${step.index}:${step.step.id}`;
      keep.add(key);
      const known = this.#items.get(key);
      let item: HTMLLIElement;
      if (known === undefined || known.state !== step) {
        item = this.#draw(step);
        known?.item.replaceWith(item);
        this.#items.set(key, { state: step, item });
      } else {
        item = known.item;
      }
      if (item.previousElementSibling !== (previous ?? null) || item.parentNode !== this.#list) {
        if (previous === undefined) this.#list.prepend(item);
        else previous.after(item);
      }
      previous = item;
    }
    for (const [key, { item }] of this.#items) {
      if (keep.has(key)) continue;
      item.remove();
      this.#items.delete(key);
    }
  }

  #draw(step: StepState): HTMLLIElement {
    const note = stepNote(step);
    const argumentsText = toLine(stepArguments(step));
    return element(
      "li",
      { part: `step step-${step.status}`, "data-step": step.step.id, "data-status": step.status },
      element("span", { class: "status", part: "status" }, describeStatus(step)),
      element("span", { class: "id" }, step.step.id),
      element("span", { class: "name" }, stepName(step)),
      ...(argumentsText === "" ? [] : [element("code", { class: "arguments", part: "arguments" }, argumentsText)]),
      ...(note === "" ? [] : [element("span", { class: "note", part: "note" }, note)]),
    );
  }
}
