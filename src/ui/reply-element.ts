/**
 * `<plankit-reply>`: the run's answer as it is written.
 *
 * @module
 */
import type { RunState } from "../events/run-state.ts";
import { element, RunViewElement } from "./run-view-element.ts";

const styles = `
p { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
p:empty { display: none; }
`;

/**
 * The reply as it streams: each `reply-delta` is appended, in a polite ARIA
 * live region, so a screen reader reads the new words rather than the whole
 * answer again; the final `reply` replaces the text only if it differs.
 *
 * Parts: `reply` (the live region).
 */
export class ReplyElement extends RunViewElement {
  readonly #text = element("p", {
    part: "reply",
    "aria-live": "polite",
    "aria-atomic": "false",
    "aria-relevant": "additions text",
  });
  #shown = "";

  constructor() {
    super(styles);
    this.root.append(this.#text);
  }

  protected render(state: RunState | undefined): void {
    const text = state?.reply?.text ?? state?.replyDraft ?? "";
    if (text === this.#shown) return;
    if (this.#shown !== "" && text.startsWith(this.#shown)) this.#text.append(text.slice(this.#shown.length));
    else this.#text.textContent = text;
    this.#shown = text;
  }
}
