/**
 * `<plankit-approval>`: the card where a person decides the steps that wait.
 *
 * @module
 */
import type { ApprovalDecision } from "../events/approval-decision.ts";
import type { RunState, StepState } from "../events/run-state.ts";
import type { RunStore } from "./create-run-store.ts";
import { stepName, toLine } from "./describe-step.ts";
import { parseEditedArguments } from "./parse-edited-arguments.ts";
import { element, RunViewElement } from "./run-view-element.ts";

const styles = `
section { border: 2px solid var(--_warning); border-radius: var(--_radius); padding: 10px 12px; background: var(--_background); }
section[data-pending="false"] { border: 1px solid var(--_border); }
h2 { font-size: 1em; margin: 0 0 8px; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
.title { margin: 0 0 4px; overflow-wrap: anywhere; }
.waiting { margin: 0 0 4px; color: var(--_muted); font-size: 12px; }
label { display: block; font-size: 12px; color: var(--_muted); margin: 6px 0 2px; }
textarea, input { width: 100%; font: 12px/1.4 ui-monospace, monospace; color: var(--_text); background: var(--_background); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 6px; }
textarea[aria-invalid="true"] { border-color: var(--_danger); }
.error { color: var(--_danger); margin: 4px 0 0; overflow-wrap: anywhere; }
.error:empty { display: none; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.approve { background: var(--_success); border-color: var(--_success); color: #ffffff; }
.deny { color: var(--_danger); }
.decided code { font: 12px/1.4 ui-monospace, monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
`;

/** The detail of a `plankit-decision` event. */
export interface DecisionEventDetail {
  decision: ApprovalDecision;
}

/**
 * The approval card: for each step that waits, its tool, description and
 * arguments as editable JSON, an optional reason, and Approve / Deny. Edited
 * arguments must be a JSON object or the card says what is wrong, inline,
 * and sends nothing; unchanged arguments approve the step as shown. When a
 * request arrives the card takes the focus. Decided steps stay listed with
 * their outcome and the arguments approved.
 *
 * Before sending, it dispatches a cancelable, bubbling `plankit-decision`
 * event (`detail.decision`); `preventDefault()` keeps the decision from the
 * store. A refused decision shows the store's error in the step's item.
 *
 * Parts: `card`, `heading`, `approval-step`, `arguments`, `reason`,
 * `approve-button`, `deny-button`, `error`, `decided`.
 */
export class ApprovalElement extends RunViewElement {
  readonly #heading = element("h2", { id: "heading", part: "heading" });
  readonly #list = element("ul");
  readonly #card = element(
    "section",
    { part: "card", tabindex: "-1", "aria-labelledby": "heading" },
    this.#heading,
    this.#list,
  );
  readonly #items = new Map<string, { key: string; item: HTMLLIElement }>();
  #store: RunStore | undefined;

  constructor() {
    super(styles);
    this.root.append(this.#card);
  }

  protected render(state: RunState | undefined, _connection: unknown, store: RunStore | undefined): void {
    this.#store = store;
    const asked = (state?.steps ?? []).filter((step) => step.approval !== undefined);
    // A step waits for a decision only while the run lists it (a re-plan or a failed dependency may skip it
    // first); once the run has ended, a step still asked about can no longer be decided.
    const waiting = new Set(state?.status === "ended" ? [] : state?.awaitingApproval);
    const pending = asked.filter((step) => step.approval?.status === "requested" && waiting.has(step.step.id));
    this.hidden = asked.length === 0;
    this.#heading.textContent =
      pending.length > 0
        ? `Approval needed (${pending.length} ${pending.length === 1 ? "step" : "steps"})`
        : "Approvals";
    this.#card.dataset["pending"] = String(pending.length > 0);
    let arrived = false;
    const keep = new Set<string>();
    let previous: HTMLLIElement | undefined;
    for (const step of asked) {
      const id = step.step.id;
      const approval = step.approval!;
      const open = approval.status === "requested" && waiting.has(id);
      const key = `${approval.requestId}:${approval.status}:${open}:${JSON.stringify(approval.arguments)}`;
      keep.add(id);
      let entry = this.#items.get(id);
      if (entry === undefined || entry.key !== key) {
        const item = open ? this.#drawPending(step) : this.#drawDecided(step);
        if (open) arrived = true;
        entry?.item.replaceWith(item);
        entry = { key, item };
        this.#items.set(id, entry);
      }
      if (entry.item.parentNode !== this.#list || entry.item.previousElementSibling !== (previous ?? null)) {
        if (previous === undefined) this.#list.prepend(entry.item);
        else previous.after(entry.item);
      }
      previous = entry.item;
    }
    for (const [id, entry] of this.#items) {
      if (keep.has(id)) continue;
      entry.item.remove();
      this.#items.delete(id);
    }
    // A new request takes the focus, so a keyboard or screen-reader user is taken to it.
    // The whole card is brought into view (when it fits), not only its top edge as focus() would.
    if (arrived && state?.status === "running") {
      this.#card.focus({ preventScroll: true });
      this.#card.scrollIntoView({ block: "nearest" });
    }
  }

  #drawPending(step: StepState): HTMLLIElement {
    const id = step.step.id;
    const approval = step.approval!;
    const original = JSON.stringify(approval.arguments, null, 2);
    const description = this.#describe(step);
    const textarea = element("textarea", {
      id: `arguments-${id}`,
      part: "arguments",
      rows: String(Math.min(8, original.split("\n").length + 1)),
      spellcheck: "false",
      "aria-describedby": `error-${id}`,
    });
    textarea.value = original;
    const reason = element("input", { id: `reason-${id}`, part: "reason", type: "text", maxlength: "500" });
    const error = element("p", { id: `error-${id}`, class: "error", part: "error", role: "alert" });
    const canApprove = this.#store?.canApprove === true;
    const approve = element(
      "button",
      {
        type: "button",
        class: "approve",
        part: "approve-button",
        "data-approve": id,
        disabled: canApprove ? undefined : "",
      },
      `Approve ${id}`,
    );
    const deny = element(
      "button",
      { type: "button", class: "deny", part: "deny-button", "data-deny": id, disabled: canApprove ? undefined : "" },
      `Deny ${id}`,
    );
    const item = element(
      "li",
      { part: "approval-step", "data-step": id },
      element(
        "p",
        { class: "title" },
        element("strong", {}, stepName(step)),
        ` (${id})${description === undefined ? "" : `: ${description}`}`,
      ),
      ...(approval.waiting.length === 0
        ? []
        : [
            element(
              "p",
              { class: "waiting" },
              `Filled in when it runs: ${approval.waiting.map((entry) => entry.reference).join(", ")}`,
            ),
          ]),
      element("label", { for: `arguments-${id}` }, `Arguments of ${id} (JSON; edit to approve different ones)`),
      textarea,
      error,
      element("label", { for: `reason-${id}` }, `Reason, if you deny ${id} (optional)`),
      reason,
      element("div", { class: "actions" }, approve, deny),
    );
    const send = async (decision: ApprovalDecision): Promise<void> => {
      const event = new CustomEvent<DecisionEventDetail>("plankit-decision", {
        detail: { decision },
        bubbles: true,
        composed: true,
        cancelable: true,
      });
      if (!this.dispatchEvent(event)) return;
      approve.disabled = true;
      deny.disabled = true;
      try {
        await this.#store?.approve([decision]);
      } catch (failure) {
        error.textContent = failure instanceof Error ? failure.message : String(failure);
        approve.disabled = false;
        deny.disabled = false;
      }
    };
    approve.addEventListener("click", () => {
      const text = textarea.value;
      if (text.trim() === original.trim()) return void send({ stepId: id, approved: true });
      const parsed = parseEditedArguments(text, id);
      if (!parsed.ok) {
        error.textContent = parsed.message;
        textarea.setAttribute("aria-invalid", "true");
        textarea.focus();
        return;
      }
      error.textContent = "";
      textarea.removeAttribute("aria-invalid");
      void send({ stepId: id, approved: true, arguments: parsed.arguments });
    });
    textarea.addEventListener("input", () => {
      if (textarea.getAttribute("aria-invalid") === null) return;
      textarea.removeAttribute("aria-invalid");
      error.textContent = "";
    });
    deny.addEventListener("click", () => {
      const why = reason.value.trim();
      void send(why === "" ? { stepId: id, approved: false } : { stepId: id, approved: false, reason: why });
    });
    return item;
  }

  /**
   * What the request said the step does: the step's description, else its
   * tool's. The run state keeps no descriptions, so the store's events are asked.
   */
  #describe(step: StepState): string | undefined {
    const events = this.#store?.events ?? [];
    for (let index = events.length - 1; index >= 0; index--) {
      const event = events[index];
      if (event?.type !== "approval-request") continue;
      const item = event.steps.find((candidate) => candidate.stepId === step.step.id);
      if (item !== undefined) return item.description;
    }
    return (step.step as { description?: string }).description;
  }

  #drawDecided(step: StepState): HTMLLIElement {
    const approval = step.approval!;
    const skipped = step.status === "skipped" && step.skip?.code !== "aborted" ? step.skip?.reason : undefined;
    const outcome =
      approval.status === "approved"
        ? "approved"
        : approval.status === "denied"
          ? `denied${approval.reason === undefined ? "" : `: ${approval.reason}`}`
          : `not decided: ${skipped ?? "the run ended first, so it did not run"}`;
    return element(
      "li",
      { part: "approval-step decided", class: "decided", "data-step": step.step.id, "data-decision": approval.status },
      element(
        "p",
        { class: "title" },
        element("strong", {}, stepName(step)),
        ` (${step.step.id}) ${outcome}${approval.by === "timeout" ? " (no answer in time)" : ""}`,
      ),
      ...(approval.status === "approved" ? [element("code", {}, toLine(approval.arguments))] : []),
    );
  }
}
