/**
 * `<plankit-run>`: the whole view of a run.
 *
 * @module
 */
import type { RunState } from "../events/run-state.ts";
import type { RunConnection, RunStore } from "./create-run-store.ts";
import { describeRun } from "./describe-run.ts";
import { element, RunViewElement } from "./run-view-element.ts";

const styles = `
:host { display: grid; gap: 12px; min-width: 0; }
header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; }
.query { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.status { margin: 0; color: var(--_muted); overflow-wrap: anywhere; }
.status[data-tone="danger"] { color: var(--_danger); }
.status[data-tone="success"] { color: var(--_success); }
.status[data-tone="warning"] { color: var(--_warning); }
plankit-plan-graph, plankit-steps, plankit-reply, plankit-approval { min-width: 0; }
`;

/** The parts of the inner elements that `<plankit-run>` passes on, so `plankit-run::part(node)` works. */
const innerParts =
  "graph, node, node-planned, node-running, node-retrying, node-succeeded, node-failed, node-skipped, edge, list, step, step-planned, step-running, step-retrying, step-succeeded, step-failed, step-skipped, status, arguments, note, card, heading, approval-step, reason, approve-button, deny-button, error, decided, reply";

/**
 * A run as a whole: its request and status with a Stop button, the plan
 * graph, the approval card, the step list and the reply, all fed by one
 * store (the `store` property, or `src` and `token`).
 *
 * Parts: `header`, `query`, `run-status`, `stop-button`, and every part of
 * the inner elements (`node`, `step`, `approve-button`, `reply`, …).
 */
export class RunElement extends RunViewElement {
  readonly #query = element("p", { class: "query", part: "query" });
  readonly #status = element("p", { class: "status", part: "run-status" });
  readonly #stop = element("button", { type: "button", part: "stop-button", hidden: "" }, "Stop");
  readonly #views = [
    element("plankit-plan-graph", { exportparts: innerParts }),
    element("plankit-approval", { exportparts: innerParts }),
    element("plankit-steps", { exportparts: innerParts }),
    element("plankit-reply", { exportparts: innerParts }),
  ];
  #store: RunStore | undefined;

  constructor() {
    super(styles);
    this.root.append(
      element("header", { part: "header" }, element("div", {}, this.#query, this.#status), this.#stop),
      ...this.#views,
    );
    this.#stop.addEventListener("click", () => {
      this.#stop.disabled = true;
      this.#store?.stop().catch((error: unknown) => {
        this.#status.textContent = `Could not stop the run: ${error instanceof Error ? error.message : String(error)}`;
        this.#status.dataset["tone"] = "danger";
        this.#stop.disabled = false;
      });
    });
  }

  protected render(
    state: RunState | undefined,
    connection: RunConnection | undefined,
    store: RunStore | undefined,
  ): void {
    if (store !== this.#store) {
      this.#store = store;
      for (const view of this.#views) view.store = store;
      // A Stop pressed for an earlier store leaves the button disabled; the new run has not been stopped.
      this.#stop.disabled = false;
    }
    this.#query.textContent = state?.query ?? "";
    const { text, tone } = describeRun(state, connection);
    this.#status.textContent = text;
    this.#status.dataset["tone"] = tone;
    this.#stop.hidden = store?.canStop !== true || state?.status !== "running";
  }
}
