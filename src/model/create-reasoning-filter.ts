/**
 * Dropping a reasoning model's leading thought block from its streamed text.
 *
 * @module
 */

const OPENERS = ["<think>", "<thinking>"];

/** A push filter made by {@link createReasoningFilter}. */
export interface ReasoningFilter {
  /** Takes the next chunk; returns the part of the text that is answer, not thought. */
  push(chunk: string): string;
  /** Ends the text; returns what was held back (a prefix that turned out not to open a thought block). */
  end(): string;
}

/**
 * Creates a filter that drops a `<think>…</think>` (or `<thinking>…</thinking>`)
 * block at the very start of a model's answer, as reasoning models served
 * through OpenAI-compatible APIs write it into the text. The thought often
 * holds brackets and half-plans of its own that are not the answer. Text
 * without such a block passes through unchanged; chunk boundaries may fall
 * anywhere, inside the tags too.
 *
 * @returns a fresh filter.
 *
 * @example
 * ```ts
 * const filter = createReasoningFilter();
 * filter.push("<think>maybe [1]?</th"); // ""
 * filter.push('ink>\n[{"id":"s1"'); // '\n[{"id":"s1"'
 * ```
 */
export function createReasoningFilter(): ReasoningFilter {
  let state: "start" | "inside" | "after" | "pass" = "start";
  let held = "";
  let closer = "";

  const inside = (text: string): string => {
    const at = text.indexOf(closer);
    if (at < 0) {
      // Keep just enough to recognise a closing tag split across chunks.
      held = text.slice(Math.max(0, text.length - closer.length + 1));
      return "";
    }
    held = "";
    state = "after";
    return after(text.slice(at + closer.length));
  };

  // The blank lines between a thought block and the answer are not part of the answer.
  const after = (text: string): string => {
    const answer = text.trimStart();
    if (answer !== "") state = "pass";
    return answer;
  };

  return {
    push(chunk) {
      if (state === "pass") return chunk;
      if (state === "after") return after(chunk);
      if (state === "inside") return inside(held + chunk);
      held += chunk;
      const text = held.trimStart();
      if (text === "") return "";
      const opener = OPENERS.find((tag) => text.startsWith(tag));
      if (opener !== undefined) {
        state = "inside";
        closer = `</${opener.slice(1)}`;
        return inside(text.slice(opener.length));
      }
      if (OPENERS.some((tag) => tag.startsWith(text))) return "";
      state = "pass";
      const out = held;
      held = "";
      return out;
    },
    end() {
      const out = state === "start" ? held : "";
      held = "";
      return out;
    },
  };
}
