/**
 * Lenient extraction of a JSON object from model text.
 *
 * @module
 */
import { isRecord } from "./is-record.ts";

const maxScannedLength = 100_000;

/**
 * How many characters all candidates together may read, per character of
 * the text. A failed candidate is retried from its next brace, so nested
 * braces that never parse (`{{{…}}}`) would read the text once per brace:
 * 100 000 characters took 14 s. Past this budget the search stops with what
 * it found; a text with a few objects and stray braces stays far below it.
 */
const readsPerCharacter = 32;

/**
 * Finds the brace that closes the one at `start`, reading at most `budget.left` characters.
 *
 * @param text - the text.
 * @param start - the offset of a `{`.
 * @param budget - the characters all candidates may still read, spent here.
 * @returns the offset of the closing brace, -1 when the text ends first, -2 when the budget does.
 */
function closingBrace(text: string, start: number, budget: { left: number }): number {
  let depth = 0;
  let inString = false;
  const stop = Math.min(text.length, start + budget.left);
  for (let index = start; index < stop; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) {
      budget.left -= index + 1 - start;
      return index;
    }
  }
  budget.left -= stop - start;
  return stop < text.length ? -2 : -1;
}

/**
 * Finds the first JSON object in model text that may wrap it in prose or
 * code fences. Candidates are balanced `{…}` spans (braces inside strings are
 * skipped), tried left to right with `JSON.parse`; the first object having
 * `preferKey` wins, else the first object at all. Linear in the text: the
 * candidates together read it at most 32 times over, then the search
 * stops with what it found.
 *
 * @param text - the model's text; only the first 100 000 characters are scanned.
 * @param preferKey - a key the wanted object has (e.g. `"action"`).
 * @returns the object, or `undefined` when the text holds none.
 * @example
 * ```ts
 * extractJsonObject('Sure:\n```json\n{"action":"respond","reason":"greeting"}\n```', "action");
 * ```
 */
export function extractJsonObject(text: string, preferKey?: string): Record<string, unknown> | undefined {
  const scanned = text.length > maxScannedLength ? text.slice(0, maxScannedLength) : text;
  let first: Record<string, unknown> | undefined;
  let from = 0;
  const budget = { left: readsPerCharacter * scanned.length };
  for (;;) {
    const start = scanned.indexOf("{", from);
    if (start === -1) return first;
    const end = closingBrace(scanned, start, budget);
    if (end < 0) return first;
    // JSON.parse reads the candidate once more.
    budget.left -= end + 1 - start;
    let parsed: unknown;
    try {
      parsed = JSON.parse(scanned.slice(start, end + 1));
    } catch {
      from = start + 1;
      continue;
    }
    if (isRecord(parsed)) {
      const object = parsed as Record<string, unknown>;
      if (preferKey === undefined || Object.hasOwn(object, preferKey)) return object;
      first ??= object;
    }
    from = end + 1;
  }
}
