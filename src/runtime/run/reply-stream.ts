/**
 * A reply step's text, written out as its references become available.
 *
 * @module
 */
import { findReferencesInText } from "../../plan/find-references.ts";
import { resolveReferences } from "../../plan/resolve-references.ts";
import type { EntryStatus } from "./step-table.ts";

/**
 * The text of one reference inside a longer text, as `resolveReferences` writes it.
 *
 * @param source - the reference, `{{s1.path}}`.
 * @param results - the run's results.
 * @returns the text, or `undefined` when the reference does not resolve.
 */
function referenceText(source: string, results: ReadonlyMap<string, unknown>): string | undefined {
  try {
    // A leading character makes the reference part of a longer text, so it renders as text.
    const resolved = resolveReferences(` ${source}`, results);
    return typeof resolved === "string" ? resolved.slice(1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How much of a literal piece of a text still being written may go out: not
 * from a `{{` on (a reference may be in progress), nor a last `{` (it may
 * become one), nor a last high surrogate (its pair is still to come).
 *
 * @param literal - text after the last complete reference.
 * @returns the length that may be written.
 */
function settledLength(literal: string): number {
  const open = literal.indexOf("{{");
  if (open !== -1) return open;
  let end = literal.length;
  if (literal.endsWith("{")) end--;
  const last = literal.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return end;
}

/**
 * Whether a text still being written may yet turn out to be exactly one
 * reference (which stands for the value itself, so is not streamed).
 *
 * @param text - the text so far.
 * @returns the check.
 */
function mayBecomeOneReference(text: string): boolean {
  if (text === "" || text === "{") return true;
  if (!text.startsWith("{{")) return false;
  const first = findReferencesInText(text)[0];
  return !(first !== undefined && first.start === 0 && first.source.length < text.length);
}

/**
 * Writes a reply step's text in order: literal text at once, each
 * reference as soon as its step has succeeded. What was written is never
 * taken back, so once a reply has begun streaming, a reference whose step
 * failed or was skipped is written as a note, and one that does not resolve
 * is written as it stands. The pieces joined are the final text.
 *
 * The text may be a draft that grows as the model writes it
 * (`complete: false`): then only what cannot change goes out — literal text
 * up to a reference still being written, and nothing while the whole text
 * may still be one reference — and {@link ReplyStream.close} gives the
 * whole text at the end.
 *
 * @example
 * ```ts
 * const reply = new ReplyStream("It is {{s1.temp}} °C.");
 * reply.advance(results, statusOf); // "It is " (s1 still running)
 * ```
 */
export class ReplyStream {
  /** The text written so far. */
  written = "";
  /** The text as known so far (with its references). */
  #source: string;
  /** How much of `#source` was written out. */
  #consumed = 0;
  #complete: boolean;

  /**
   * @param text - the reply step's text, or its draft so far.
   * @param complete - whether `text` is whole.
   */
  constructor(text: string, complete = true) {
    this.#source = text;
    this.#complete = complete;
  }

  /**
   * Whether a reply text can be streamed piece by piece: a text that is one
   * reference and nothing else becomes the value itself, known only at the end.
   *
   * @param text - a reply step's text.
   * @returns the check.
   */
  static streamable(text: string): boolean {
    const references = findReferencesInText(text);
    const first = references[0];
    return !(references.length === 1 && first !== undefined && first.exact);
  }

  /**
   * Takes a longer draft of the text.
   *
   * @param text - the draft so far.
   * @returns whether it was taken: not when the text is whole, or when the draft does not extend the one before.
   */
  extend(text: string): boolean {
    if (this.#complete || !text.startsWith(this.#source)) return false;
    this.#source = text;
    return true;
  }

  /**
   * Ends the draft: the text is whole from now on. When `text` goes on
   * from what was written, it is the text; otherwise (the step as
   * validated differs from what was written) the text stays the draft as
   * last taken, since what was written cannot be taken back.
   *
   * @param text - the whole text, or `undefined` to keep the draft.
   * @returns whether `text` became the text.
   */
  close(text: string | undefined): boolean {
    if (this.#complete) return text === this.#source;
    this.#complete = true;
    if (text === undefined || !text.startsWith(this.#source.slice(0, this.#consumed))) return false;
    this.#source = text;
    return true;
  }

  /**
   * Writes what can be written now.
   *
   * @param results - the run's results.
   * @param statusOf - the status of a step by id.
   * @param final - write everything, with notes for what is missing (closes a draft as it stands).
   * @returns the new text (may be empty).
   */
  advance(
    results: ReadonlyMap<string, unknown>,
    statusOf: (id: string) => EntryStatus | undefined,
    final = false,
  ): string {
    if (final) this.close(undefined);
    const source = this.#source;
    if (!this.#complete && mayBecomeOneReference(source)) return "";
    let delta = "";
    while (this.#consumed < source.length) {
      const rest = source.slice(this.#consumed);
      const reference = findReferencesInText(rest)[0];
      const literalEnd = reference?.start ?? (this.#complete ? rest.length : settledLength(rest));
      delta += rest.slice(0, literalEnd);
      this.#consumed += literalEnd;
      if (reference === undefined) break;
      const status = reference.id === "context" ? "succeeded" : statusOf(reference.id);
      if (status === "succeeded") {
        delta += referenceText(reference.source, results) ?? reference.source;
      } else if (status === "failed" || status === "skipped") {
        delta += `[step "${reference.id}" ${status === "failed" ? "failed" : "was skipped"}]`;
      } else if (final) {
        // A step that never was (a draft's reference the plan did not keep) is written as it stands.
        delta += status === undefined ? reference.source : `[step "${reference.id}" did not finish]`;
      } else {
        break;
      }
      this.#consumed += reference.source.length;
    }
    this.written += delta;
    return delta;
  }
}
