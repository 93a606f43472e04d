/**
 * The guided conversation panel of the web demo.
 *
 * @module
 */
import type { DecisionState } from "../src/decide.ts";
import { describeDecision } from "./describe-decision.ts";
import type { PlaybookEvent } from "./guide-event.ts";
import { guideOnWorker } from "./guide-on-worker.ts";

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

/**
 * Wires the guided conversation panel: each message is one turn on the
 * Worker (`POST /v1/guide`), sent with the state the last turn returned. The
 * panel shows the phases, the chat, each decision of the engine and the state.
 *
 * @param readToken - gives the bearer token of the page, if any.
 * @returns nothing.
 * @example
 * ```ts
 * mountGuide(() => tokenInput.value);
 * ```
 */
export function mountGuide(readToken: () => string): void {
  const form = element<HTMLFormElement>("#guide-form");
  const message = element<HTMLTextAreaElement>("#guide-message");
  const queryMode = element<HTMLInputElement>("#guide-query");
  const send = element<HTMLButtonElement>("#guide-send");
  const reset = element<HTMLButtonElement>("#guide-reset");
  const status = element<HTMLElement>("#guide-status");
  const phaseList = element<HTMLOListElement>("#guide-phases");
  const log = element<HTMLOListElement>("#guide-log");
  const decisions = element<HTMLOListElement>("#guide-decisions");
  const stateView = element<HTMLElement>("#guide-state");

  let state: DecisionState = {};
  let playbook: PlaybookEvent | undefined;
  let finished = false;
  let controller: AbortController | undefined;

  const showPhases = (): void => {
    if (playbook === undefined) return;
    const current = playbook.phases.findIndex((phase) => phase.id === state.current_task_id);
    phaseList.replaceChildren(
      ...playbook.phases.map((phase, index) => {
        const item = document.createElement("li");
        item.dataset["phase"] = phase.id;
        item.dataset["state"] =
          finished || index < current ? "done" : index === Math.max(current, 0) ? "current" : "pending";
        item.textContent = phase.id;
        if (phase.description !== undefined) item.title = phase.description;
        return item;
      }),
    );
  };
  const say = (role: "user" | "assistant" | "error", text: string): HTMLLIElement => {
    const item = document.createElement("li");
    item.dataset["role"] = role;
    item.textContent = text;
    log.append(item);
    item.scrollIntoView({ block: "nearest" });
    return item;
  };
  const showState = (): void => {
    stateView.textContent = JSON.stringify(state, null, 2);
  };

  async function turn(): Promise<void> {
    const text = message.value.trim();
    if (text === "") {
      status.textContent = "Type a message first.";
      message.focus();
      return;
    }
    controller?.abort();
    controller = new AbortController();
    say("user", text);
    message.value = "";
    send.disabled = true;
    status.textContent = "Deciding…";
    const sent: DecisionState = queryMode.checked ? { ...state, _query_mode: true } : { ...state, _query_mode: null };
    try {
      for await (const event of guideOnWorker(text, sent, { token: readToken(), signal: controller.signal })) {
        if (event.type === "playbook") {
          playbook = event;
          showPhases();
        } else if (event.type === "decision") {
          const item = document.createElement("li");
          item.dataset["action"] = event.trace.action;
          item.textContent = describeDecision(event.trace);
          decisions.append(item);
        } else if (event.type === "skill-start") {
          status.textContent = `Running ${event.skill}…`;
        } else if (event.type === "phase-change") {
          state = { ...state, current_task_id: event.to };
          showPhases();
        } else if (event.type === "turn-end") {
          if (event.error !== undefined) {
            say("error", `The turn failed (${event.error.code}): ${event.error.message}`);
            status.textContent = "The turn failed; the state is unchanged.";
          } else {
            state = event.state;
            finished = event.finished;
            if (event.reply !== undefined) say("assistant", event.reply);
            status.textContent = event.finished ? "The conversation is complete." : `Phase: ${event.phase}.`;
          }
          showPhases();
          showState();
        } else if (event.type === "error") {
          say("error", event.message);
        }
      }
    } catch (error) {
      say("error", error instanceof Error ? error.message : String(error));
      status.textContent = "";
    } finally {
      send.disabled = false;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void turn();
  });
  message.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!send.disabled) form.requestSubmit(send);
    }
  });
  reset.addEventListener("click", () => {
    controller?.abort(new Error("Started over"));
    state = {};
    finished = false;
    log.replaceChildren();
    decisions.replaceChildren();
    status.textContent = "";
    showPhases();
    showState();
    message.focus();
  });
  showState();
}
