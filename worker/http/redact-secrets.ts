/**
 * Keeping secrets out of responses.
 *
 * @module
 */

/** A function that removes secrets from a text, and its streaming form. */
export interface Redactor {
  /**
   * Replaces every occurrence of a secret in a whole text with `[redacted]`.
   *
   * @param text - the text.
   * @returns the text without secrets.
   */
  (text: string): string;
  /**
   * Redacts the part of a text that can be settled now, for a text that
   * goes on: `done` is the redacted text up to where a secret might begin
   * that the text cut short; `rest` is the tail to prepend to what follows.
   *
   * @param text - the text so far (the previous `rest` and the new part).
   * @returns the settled, redacted part, and the rest.
   */
  partial(text: string): { done: string; rest: string };
  /** Whether there is any secret to redact. */
  readonly active: boolean;
}

/**
 * Builds the function that replaces every occurrence of the given secrets
 * in a text with `[redacted]`: each secret matched whole (its full value,
 * as written and as escaped inside a JSON string), whatever its length,
 * the longest first where two overlap. Its `partial` form serves streams:
 * a secret split across two chunks is still found.
 *
 * @param secrets - the secret values; `undefined` and empty entries are skipped.
 * @returns the redactor.
 *
 * @example
 * ```ts
 * const redact = createRedactor([env.OPENAI_API_KEY, env.PLANKIT_TOKEN]);
 * controller.enqueue(redact(message));
 * ```
 */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const needles = [...new Set(secrets.flatMap((secret) => (secret === undefined || secret === "" ? [] : [secret, JSON.stringify(secret).slice(1, -1)])))].sort((a, b) => b.length - a.length);
  /**
   * Scans a text left to right, replacing each secret found; stops (when
   * `final` is false) where the text's end could be the start of a secret.
   */
  const scan = (text: string, final: boolean): { done: string; rest: string } => {
    let done = "";
    let from = 0;
    for (let index = 0; index < text.length; ) {
      // A secret that the rest of the text may complete waits for it, even where a shorter one matches now.
      if (!final) {
        const tail = text.length - index;
        if (needles.some((needle) => needle.length > tail && needle.startsWith(text.slice(index)))) {
          return { done: done + text.slice(from, index), rest: text.slice(index) };
        }
      }
      const found = needles.find((needle) => text.startsWith(needle, index));
      if (found !== undefined) {
        done += `${text.slice(from, index)}[redacted]`;
        index += found.length;
        from = index;
        continue;
      }
      index++;
    }
    return { done: done + text.slice(from), rest: "" };
  };
  const active = needles.length > 0;
  const redact = (text: string): string => (active ? scan(text, true).done : text);
  return Object.assign(redact, { partial: (text: string) => (active ? scan(text, false) : { done: text, rest: "" }), active });
}
