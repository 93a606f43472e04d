/**
 * A reply step's text, written out as its references become available.
 *
 * @module
 */
import { findReferencesInText } from "../../plan/find-references.ts";
import { resolveReferences } from "../../plan/resolve-references.ts";
import type { EntryStatus } from "./step-table.ts";

type Segment = { kind: "text"; text: string } | { kind: "reference"; id: string; source: string };

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
 * Writes a reply step's text in order: literal text at once, each
 * reference as soon as its step has succeeded. What was written is never
 * taken back, so once a reply has begun streaming, a reference whose step
 * failed or was skipped is written as a note, and one that does not resolve
 * is written as it stands. The pieces joined are the final text.
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
  readonly #segments: Segment[] = [];
  #next = 0;

  /**
   * @param text - the reply step's text.
   */
  constructor(text: string) {
    let position = 0;
    for (const reference of findReferencesInText(text)) {
      if (reference.start > position) this.#segments.push({ kind: "text", text: text.slice(position, reference.start) });
      this.#segments.push({ kind: "reference", id: reference.id, source: reference.source });
      position = reference.start + reference.source.length;
    }
    if (position < text.length) this.#segments.push({ kind: "text", text: text.slice(position) });
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
   * Writes what can be written now.
   *
   * @param results - the run's results.
   * @param statusOf - the status of a step by id.
   * @param final - write everything, with notes for what is missing.
   * @returns the new text (may be empty).
   */
  advance(results: ReadonlyMap<string, unknown>, statusOf: (id: string) => EntryStatus | undefined, final = false): string {
    let delta = "";
    for (; this.#next < this.#segments.length; this.#next++) {
      const segment = this.#segments[this.#next] as Segment;
      if (segment.kind === "text") {
        delta += segment.text;
        continue;
      }
      const status = segment.id === "context" ? "succeeded" : statusOf(segment.id);
      if (status === "succeeded") {
        delta += referenceText(segment.source, results) ?? segment.source;
      } else if (status === "failed" || status === "skipped") {
        delta += `[step "${segment.id}" ${status === "failed" ? "failed" : "was skipped"}]`;
      } else if (final) {
        delta += `[step "${segment.id}" did not finish]`;
      } else {
        break;
      }
    }
    this.written += delta;
    return delta;
  }
}
