/**
 * The demo's approval card: one card for the steps a plan asks a person about.
 *
 * @module
 */
import type { ApprovalDecision } from "../src/index.ts";
import { parseEditedArguments } from "./parse-edited-arguments.ts";
import type { ApprovalCard, ApprovalCardStep } from "./to-approval-card.ts";

/** The card, once mounted. */
export interface ApprovalCardControl {
  /**
   * Shows a card (new request: drawn afresh and focused; same request:
   * updated in place, keeping what the person typed), or hides it.
   *
   * @param card - the card, or `undefined` to hide it.
   */
  show(card: ApprovalCard | undefined): void;
}

/** Words for a step's status on its badge. */
const statusText: Record<ApprovalCardStep["status"], string> = {
  requested: "needs approval",
  approved: "approved",
  denied: "denied",
  stopped: "not run",
};

/**
 * Creates an element with a class and text.
 *
 * @param tag - the tag name.
 * @param className - the class, or `""`.
 * @param text - the text, or `""`.
 * @returns the element.
 */
function create<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className !== "") made.className = className;
  if (text !== "") made.textContent = text;
  return made;
}

/**
 * Mounts the approval card into `root` (an empty `<section>`): the steps
 * with their readable arguments and why they need approval, **Approve**,
 * **Edit arguments** (a JSON text box per step; text that is not one JSON
 * object is refused here, before anything is sent) and **Deny** (with an
 * optional reason). A refusal from the run — say a 400 naming the path of
 * an argument the tool refuses — is shown in the card, and the steps keep
 * waiting. A new request takes the focus. Edit boxes and messages grow
 * the card downwards; nothing above it moves.
 *
 * @param root - the card's element.
 * @param decide - sends decisions; rejects with an Error for people when they are refused.
 * @returns the control.
 *
 * @example
 * ```ts
 * const card = mountApprovalCard(document.querySelector("#approval")!, (decisions) => run.approve(decisions));
 * card.show(toApprovalCard(request, reducer.state, tools));
 * ```
 */
export function mountApprovalCard(
  root: HTMLElement,
  decide: (decisions: ApprovalDecision[]) => Promise<void>,
): ApprovalCardControl {
  const heading = create("h2", "", "");
  heading.id = "approval-heading";
  heading.tabIndex = -1;
  const summary = create("p", "approval-summary");
  summary.dataset["testid"] = "approval-summary";
  const stepList = create("ol", "approval-steps");
  const denyBox = create("div", "approval-reason");
  const reasonLabel = create("label", "", "Reason for denying (optional)");
  reasonLabel.htmlFor = "approval-reason";
  const reason = create("input", "");
  reason.id = "approval-reason";
  reason.type = "text";
  reason.maxLength = 500;
  reason.autocomplete = "off";
  reason.dataset["testid"] = "approval-reason";
  denyBox.append(reasonLabel, reason);
  const actions = create("div", "actions");
  const button = (className: string, label: string, testId: string): HTMLButtonElement => {
    const element = create("button", className, label);
    element.type = "button";
    element.dataset["testid"] = testId;
    return element;
  };
  const approveButton = button("approve", "Approve", "approval-approve");
  const editButton = button("", "Edit arguments", "approval-edit");
  editButton.setAttribute("aria-expanded", "false");
  const denyButton = button("deny", "Deny", "approval-deny");
  const closeButton = button("", "Close", "approval-close");
  actions.append(approveButton, editButton, denyButton, closeButton);
  const message = create("p", "approval-message");
  message.dataset["testid"] = "approval-message";
  message.setAttribute("role", "alert");
  root.setAttribute("aria-labelledby", heading.id);
  root.replaceChildren(heading, summary, stepList, denyBox, actions, message);

  let current: ApprovalCard | undefined;
  let editing = false;
  let sending = false;
  /** The decisions were taken: the buttons stay off until the run's events show them (or a new request comes). */
  let submitted = false;
  const editors = new Map<string, HTMLTextAreaElement>();

  const sync = (): void => {
    const open = current?.phase === "open";
    root.dataset["phase"] = current?.phase ?? "";
    denyBox.hidden = !open;
    approveButton.hidden = !open;
    editButton.hidden = !open;
    denyButton.hidden = !open;
    closeButton.hidden = open;
    for (const button of [approveButton, editButton, denyButton]) button.disabled = sending || submitted;
    reason.disabled = sending || submitted;
    root.setAttribute("aria-busy", String(sending));
    approveButton.textContent = editing ? "Approve with these arguments" : "Approve";
    editButton.textContent = editing ? "Cancel editing" : "Edit arguments";
    editButton.setAttribute("aria-expanded", String(editing));
    for (const item of stepList.querySelectorAll<HTMLElement>("li[data-approval-step]")) {
      const editor = item.querySelector<HTMLElement>(".approval-edit");
      if (editor !== null) editor.hidden = !(editing && open && item.dataset["status"] === "requested");
    }
  };

  const drawSteps = (card: ApprovalCard): void => {
    editors.clear();
    stepList.replaceChildren(
      ...card.steps.map((step) => {
        const item = create("li", "");
        item.dataset["approvalStep"] = step.stepId;
        const head = create("div", "step-head");
        head.append(create("strong", "", `${step.stepId} · ${step.tool}`), create("span", "badge"));
        const description = create("p", "approval-description", step.description);
        const list = create("dl", "approval-arguments");
        for (const line of step.lines) {
          const value = create("dd", "");
          value.append(create("span", "", line.value));
          if (line.waitsOn.length > 0)
            value.append(create("span", "approval-waits", ` (waits on ${line.waitsOn.join(", ")})`));
          list.append(create("dt", "", line.name), value);
        }
        const why = create("p", "approval-why", `Why: ${step.why}`);
        const edit = create("div", "approval-edit");
        const label = create("label", "", `Arguments of ${step.stepId} (${step.tool}) as JSON`);
        const box = create("textarea", "");
        box.id = `approval-edit-${step.stepId}`;
        box.dataset["testid"] = `approval-edit-${step.stepId}`;
        box.spellcheck = false;
        box.rows = Math.min(10, 2 + step.lines.length);
        box.value = JSON.stringify(step.arguments, null, 2);
        box.addEventListener("input", () => box.removeAttribute("aria-invalid"));
        label.htmlFor = box.id;
        edit.append(label, box);
        edit.hidden = true;
        editors.set(step.stepId, box);
        const outcome = create("p", "approval-outcome");
        item.append(head, description, list, why, edit, outcome);
        return item;
      }),
    );
  };

  const updateSteps = (card: ApprovalCard): void => {
    for (const step of card.steps) {
      const item = stepList.querySelector<HTMLElement>(`li[data-approval-step="${CSS.escape(step.stepId)}"]`);
      if (item === null) continue;
      item.dataset["status"] = step.status;
      const badge = item.querySelector(".badge");
      if (badge !== null) badge.textContent = statusText[step.status];
      const outcome = item.querySelector<HTMLElement>(".approval-outcome");
      if (outcome !== null) {
        outcome.textContent = step.outcome;
        outcome.hidden = step.outcome === "";
      }
    }
  };

  const send = async (decisions: ApprovalDecision[]): Promise<void> => {
    sending = true;
    message.textContent = "";
    sync();
    try {
      await decide(decisions);
      editing = false;
      submitted = true;
    } catch (error) {
      message.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      sending = false;
      sync();
      // Keep the focus in the card: on the refusal, or on the heading once the buttons are off.
      if (message.textContent !== "") message.focus();
      else heading.focus();
    }
  };

  const waiting = (): ApprovalCardStep[] => (current?.steps ?? []).filter((step) => step.status === "requested");

  approveButton.addEventListener("click", () => {
    const decisions: ApprovalDecision[] = [];
    for (const step of waiting()) {
      const box = editors.get(step.stepId);
      if (!editing || box === undefined) {
        decisions.push({ stepId: step.stepId, approved: true });
        continue;
      }
      const parsed = parseEditedArguments(step.stepId, box.value);
      if (!parsed.ok) {
        message.textContent = parsed.message;
        box.setAttribute("aria-invalid", "true");
        box.setAttribute("aria-describedby", "approval-message");
        box.focus();
        return;
      }
      const changed = JSON.stringify(parsed.arguments) !== JSON.stringify(step.arguments);
      decisions.push(
        changed
          ? { stepId: step.stepId, approved: true, arguments: parsed.arguments }
          : { stepId: step.stepId, approved: true },
      );
    }
    if (decisions.length > 0) void send(decisions);
  });
  denyButton.addEventListener("click", () => {
    const why = reason.value.trim();
    const decisions: ApprovalDecision[] = waiting().map((step) =>
      why === "" ? { stepId: step.stepId, approved: false } : { stepId: step.stepId, approved: false, reason: why },
    );
    if (decisions.length > 0) void send(decisions);
  });
  editButton.addEventListener("click", () => {
    editing = !editing;
    message.textContent = "";
    sync();
    if (editing) editors.get(waiting()[0]?.stepId ?? "")?.focus();
  });
  closeButton.addEventListener("click", () => control.show(undefined));
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && current?.phase !== "open") control.show(undefined);
  });
  message.tabIndex = -1;

  const control: ApprovalCardControl = {
    show(card) {
      const fresh = card !== undefined && card.requestId !== current?.requestId;
      const hadFocus = root.contains(document.activeElement);
      if (card === undefined) {
        current = undefined;
        editing = false;
        root.hidden = true;
        message.textContent = "";
        sync();
        return;
      }
      if (fresh) {
        editing = false;
        submitted = false;
        reason.value = "";
        message.textContent = "";
        drawSteps(card);
      }
      const wasOpen = current?.phase === "open";
      current = card;
      heading.textContent = card.heading;
      summary.textContent = card.summary;
      updateSteps(card);
      root.hidden = false;
      sync();
      // A new request takes the focus; a decided card keeps it inside, on its heading, when its buttons go.
      if ((fresh && card.phase === "open") || (hadFocus && wasOpen && card.phase !== "open")) heading.focus();
    },
  };
  root.hidden = true;
  return control;
}
