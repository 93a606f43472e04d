/**
 * Substituting step results for references.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { isRecord } from "../shared/is-record.ts";
import { type FoundReference, findReferencesInText } from "./find-references.ts";

/** Step results by id: a `Map` or a plain record. */
export type StepResults = ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;

/** Options of {@link resolveReferences}. */
export interface ResolveReferencesOptions {
  /**
   * What to do with a reference to a missing step or path: `"throw"` a
   * `PlankitError` with code `unknown-reference`, or `"keep"` the reference text.
   *
   * @defaultValue `"throw"`
   */
  missing?: "throw" | "keep";
}

const absent: unique symbol = Symbol("absent");

/**
 * Looks a reference up in the results.
 *
 * @param results - step results by id.
 * @param reference - the reference.
 * @returns the value, or `absent`.
 */
function lookUp(results: StepResults, reference: FoundReference): unknown {
  let current: unknown;
  if (results instanceof Map) {
    if (!results.has(reference.id)) return absent;
    current = results.get(reference.id);
  } else {
    const record = results as Readonly<Record<string, unknown>>;
    if (!Object.hasOwn(record, reference.id)) return absent;
    current = record[reference.id];
  }
  for (const segment of reference.path) {
    if (Array.isArray(current) && /^\d+$/u.test(segment)) {
      const index = Number(segment);
      if (index >= current.length) return absent;
      current = current[index];
    } else if (isRecord(current) && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return absent;
    }
  }
  return current;
}

/**
 * The text a value takes inside a longer string: strings as they are,
 * anything else as JSON.
 *
 * @param value - a JSON value.
 * @returns its text.
 */
function toText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

/**
 * Replaces references in a JSON value with the results of the steps they
 * name, deep through arrays and objects. A string that is exactly one
 * reference becomes the referenced value with its JSON type
 * (`"{{s2.value}}"` → `47`); a reference inside longer text becomes the
 * value's text (strings as they are, other values as JSON). Values without
 * references are returned as they are (not copied).
 *
 * Run-context references (`{{context.key}}`) resolve like any other: put the
 * run context in the results under `"context"`.
 *
 * @param value - any JSON value: step arguments, a prompt, a reply text.
 * @param results - completed step results by id.
 * @param options - `missing`: throw (default) or keep unresolvable references.
 * @returns the value with references replaced.
 * @throws PlankitError `unknown-reference` when a reference names a missing step or path and `missing` is `"throw"`.
 *
 * @example
 * ```ts
 * resolveReferences({ n: "{{s2.value}}", note: "got {{s2.value}}" }, { s2: { value: 47 } });
 * // { n: 47, note: "got 47" }
 * ```
 */
export function resolveReferences(
  value: unknown,
  results: StepResults,
  options: ResolveReferencesOptions = {},
): unknown {
  const keep = options.missing === "keep";
  const resolveText = (text: string): unknown => {
    const references = findReferencesInText(text);
    const values = references.map((reference) => {
      const found = lookUp(results, reference);
      if (found === absent && !keep) {
        throw new PlankitError(
          "unknown-reference",
          `Reference ${reference.source} names ${reference.path.length === 0 ? "no completed step" : "a missing step or path"} "${[reference.id, ...reference.path].join(".")}"`,
        );
      }
      return found;
    });
    // An exact reference spans the whole string, so it is the only one.
    if (references[0]?.exact === true) return values[0] === absent ? text : values[0];
    let output = "";
    let position = 0;
    references.forEach((reference, index) => {
      const resolved = values[index];
      output += text.slice(position, reference.start) + (resolved === absent ? reference.source : toText(resolved));
      position = reference.start + reference.source.length;
    });
    return output + text.slice(position);
  };
  const visit = (current: unknown): unknown => {
    if (typeof current === "string") return resolveText(current);
    // Stryker disable next-line ConditionalExpression: a number or boolean has no entries, so the object path returns it as it is.
    if (typeof current !== "object" || current === null) return current;
    let changed = false;
    // Stryker disable next-line ArrayDeclaration: an array that changed has an element 0, which the loop defines over a seeded one.
    const next: unknown[] | Record<string, unknown> = Array.isArray(current) ? [] : {};
    for (const [key, item] of Object.entries(current)) {
      const resolved = visit(item);
      if (resolved !== item) changed = true;
      // A plain assignment to "__proto__" would change the prototype instead of adding a key.
      Object.defineProperty(next, key, { value: resolved, enumerable: true, writable: true, configurable: true });
    }
    return changed ? next : current;
  };
  return visit(value);
}
