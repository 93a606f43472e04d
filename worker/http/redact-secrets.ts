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
 * in any mix of upper and lower case (`Tok-SECRET` is `tok-secret`), the
 * longest first where two begin at the same place. Its `partial` form
 * serves streams: a secret split across two chunks is still found. Time
 * is linear in the text (for each secret); a secret is matched as text,
 * never as a pattern, so `.`, `*` or `(` in it mean themselves.
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
  const forms = secrets.flatMap((secret) =>
    secret === undefined || secret === "" ? [] : [secret, JSON.stringify(secret).slice(1, -1)],
  );
  // One needle per folded form: `KEY` and `key` are one secret.
  const byCodes = new Map<string, Uint16Array>();
  for (const form of forms) {
    const codes = foldCase(form);
    byCodes.set(codes.join(","), codes);
  }
  const needles = [...byCodes.values()].map((codes) => createNeedle(codes));
  /**
   * Scans a text left to right, replacing each secret found; stops (when
   * `final` is false) where the text's end could be the start of a secret.
   */
  const scan = (text: string, final: boolean): { done: string; rest: string } => {
    const codes = foldCase(text);
    // The longest secret that begins at each offset (0 for none), and where the text's end may begin one.
    const longest = new Uint32Array(text.length);
    const mayBegin = new Set<number>();
    for (const needle of needles) needle.find(codes, longest, final ? undefined : mayBegin);
    let done = "";
    let from = 0;
    for (let index = 0; index < text.length; ) {
      // A secret that the rest of the text may complete waits for it, even where a shorter one matches now.
      if (mayBegin.has(index)) return { done: done + text.slice(from, index), rest: text.slice(index) };
      const length = longest[index]!;
      if (length > 0) {
        done += `${text.slice(from, index)}[redacted]`;
        index += length;
        from = index;
        continue;
      }
      index++;
    }
    return { done: done + text.slice(from), rest: "" };
  };
  const active = needles.length > 0;
  const redact = (text: string): string => (active ? scan(text, true).done : text);
  return Object.assign(redact, {
    partial: (text: string) => (active ? scan(text, false) : { done: text, rest: "" }),
    active,
  });
}

/** A secret's case-folded form, ready to be searched for. */
interface Needle {
  /**
   * Finds every occurrence in a folded text: notes its length at its start
   * in `longest` where longer than what is there, and, when `mayBegin` is
   * given, the offsets where the text's end is a proper beginning of it.
   */
  find(text: Uint16Array, longest: Uint32Array, mayBegin: Set<number> | undefined): void;
}

/**
 * Prepares a Knuth–Morris–Pratt search for one folded secret: the work is
 * linear in the text however the secret repeats itself (`aaaab` in
 * `aaaaaaaa…`), where trying the secret at every offset is not.
 *
 * @param codes - the secret's folded code units (see {@link foldCase}).
 * @returns the needle.
 */
function createNeedle(codes: Uint16Array): Needle {
  const length = codes.length;
  // border[q]: the length of the longest proper prefix of the first q + 1 codes that also ends them.
  const border = new Uint32Array(length);
  for (let q = 1, k = 0; q < length; q++) {
    while (k > 0 && codes[q] !== codes[k]) k = border[k - 1]!;
    if (codes[q] === codes[k]) k++;
    border[q] = k;
  }
  return {
    find(text, longest, mayBegin) {
      let matched = 0;
      for (let index = 0; index < text.length; index++) {
        const code = text[index]!;
        while (matched > 0 && codes[matched] !== code) matched = border[matched - 1]!;
        if (codes[matched] === code) matched++;
        if (matched === length) {
          const start = index + 1 - length;
          if (longest[start]! < length) longest[start] = length;
          matched = border[length - 1]!;
        }
      }
      // Every beginning of the secret that ends the text, longest first.
      if (mayBegin !== undefined)
        for (let part = matched; part > 0; part = border[part - 1]!) mayBegin.add(text.length - part);
    },
  };
}

/**
 * Folds case one UTF-16 unit at a time, so offsets stay as they were: a unit
 * becomes its lower case where that is one unit (`A` → `a`, `Ä` → `ä`), and
 * stays as it is otherwise (`İ`, whose lower case is two units).
 *
 * @param text - any text.
 * @returns its folded code units.
 */
function foldCase(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      codes[index] = code >= 65 && code <= 90 ? code + 32 : code;
      continue;
    }
    const lower = String.fromCharCode(code).toLowerCase();
    codes[index] = lower.length === 1 ? lower.charCodeAt(0) : code;
  }
  return codes;
}
