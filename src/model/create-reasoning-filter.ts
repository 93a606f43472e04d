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
  // Start state: the chunks so far (handed out unchanged if no block opens), and the text after the leading
  // spaces, which stays shorter than the longest opener. Keeping them apart keeps the work per chunk in
  // proportion to the chunk: trimming the whole held text again on every chunk made long leading space quadratic.
  let heldChunks: string[] = [];
  let candidate = "";
  // Inside state: just enough of the text to recognise a closing tag split across chunks.
  let held = "";
  let closer = "";

  // The blank lines between a thought block and the answer are not part of the answer.
  const after = (text: string): string => {
    const answer = text.trimStart();
    if (answer !== "") state = "pass";
    return answer;
  };

  const inside = (text: string): string => {
    const at = text.indexOf(closer);
    if (at < 0) {
      held = text.slice(Math.max(0, text.length - closer.length + 1));
      return "";
    }
    state = "after";
    return after(text.slice(at + closer.length));
  };

  return {
    push(chunk) {
      if (state === "pass") return chunk;
      if (state === "after") return after(chunk);
      if (state === "inside") return inside(held + chunk);
      heldChunks.push(chunk);
      candidate += candidate === "" ? chunk.trimStart() : chunk;
      const opener = OPENERS.find((tag) => candidate.startsWith(tag));
      if (opener !== undefined) {
        state = "inside";
        closer = `</${opener.slice(1)}`;
        heldChunks = [];
        return inside(candidate.slice(opener.length));
      }
      // Nothing but spaces yet, or the start of an opener: wait for more.
      if (OPENERS.some((tag) => tag.startsWith(candidate))) return "";
      state = "pass";
      const out = heldChunks.join("");
      heldChunks = [];
      return out;
    },
    end() {
      const out = state === "start" ? heldChunks.join("") : "";
      heldChunks = [];
      held = "";
      return out;
    },
  };
}
