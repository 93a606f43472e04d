/**
 * An incremental JSON parser with a push API: feed it text as it arrives and
 * get back each element of the root array the moment it is complete.
 *
 * Invariants (each has a named test in `test/json/`):
 *
 * 1. **Linear.** Total work is O(input) whatever the chunk sizes: the
 *    accumulated text is never re-parsed or copied per chunk.
 * 2. **Chunking never matters.** Every split of the same text gives the same
 *    elements, in the same calls' order, and the same value.
 * 3. **On time, once.** An element of the root array is emitted exactly once,
 *    the moment it is complete: at its closing bracket or quote, or for a bare
 *    number or literal when the following `,` or `]` arrives.
 * 4. **Strict = `JSON.parse`.** With `strict: true` the value equals
 *    `JSON.parse`'s, and every text `JSON.parse` rejects is rejected with a
 *    {@link JsonStreamError} (code `json-syntax`, the offset, what was expected),
 *    thrown by the `write()` that reads the offending character or by `end()`.
 * 5. **Lenient for model output** (the default). Prose and code fences around
 *    the root value are skipped; trailing commas, comments, single and curly
 *    quotes, unquoted keys, Python literals and tuples, missing commas,
 *    colons and quotes, unquoted string values, `...` placeholders, `"a" +
 *    "b"`, `Name("…")` wrappers, numbers such as `+5` and `.5`, words that
 *    start like numbers (`007`, `0x1F`: strings), `undefined` and `NaN`
 *    (null), `#` comments, unescaped quotes inside strings, escapes JSON
 *    lacks and raw control characters are accepted; a truncated text is
 *    closed at `end()` and every repair is reported (docs/formats.md lists
 *    each choice).
 *    `write()` never throws in lenient mode.
 * 6. **Bounded.** Nesting deeper than `maxDepth` or a single token longer
 *    than `maxTokenSize` is a typed error, never a crash or a hang.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { isIdentifierStart } from "../shared/char-codes.ts";
import { JsonStreamError, type JsonStreamErrorCode } from "./json-stream-error.ts";
import {
  AFTER_ROOT,
  ARRAY_FIRST,
  ARRAY_NEXT,
  ARRAY_VALUE,
  BLOCK_COMMENT,
  BLOCK_COMMENT_STAR,
  COLON,
  COMMENT_START,
  DONE,
  ELLIPSIS,
  ESCAPE,
  IDENT,
  LINE_COMMENT,
  LITERAL,
  N_DOT,
  N_E,
  N_E_SIGN,
  N_START,
  N_ZERO,
  NUMBER,
  NUMBER_WORD,
  OBJECT_FIRST,
  OBJECT_KEY,
  OBJECT_NEXT,
  PREAMBLE,
  STRING,
  STRING_EOL,
  STRING_QUOTE,
  UNICODE,
  UNQUOTED,
  VALUE,
} from "./parser-modes.ts";

/** Options of {@link createJsonStreamParser}. */
export interface JsonStreamParserOptions {
  /**
   * Accept exactly what `JSON.parse` accepts and throw on anything else.
   * @defaultValue false (lenient, for model output)
   */
  strict?: boolean;
  /**
   * Deepest nesting of arrays and objects allowed.
   * @defaultValue 512
   */
  maxDepth?: number;
  /**
   * Largest single token (a string, key, number or literal) in UTF-16 code
   * units; in lenient mode it also bounds the text kept while a candidate
   * root value is being tried.
   * @defaultValue 16777216 (16 Mi)
   */
  maxTokenSize?: number;
  /**
   * Keys under which a root object may wrap the array of interest: when the
   * root is an object, write() hands out the elements of the first array
   * found directly under one of these keys (e.g. `["steps"]` for
   * `{"steps": [...]}`), as it would for a root array.
   * @defaultValue [] (only a root array's elements are handed out)
   */
  unwrapKeys?: readonly string[];
  /**
   * Lenient mode: look for the root value inside prose. With `false` the
   * value must start at the first non-space character and the parser stops
   * right after it: {@link JsonStreamParser.status} turns `"done"` (or
   * `"rejected"` when the text there is no value) and
   * {@link JsonStreamParser.restOffset} says where the rest of the text
   * begins, for a caller that reads several values, or values inside other
   * syntax, one at a time.
   * @defaultValue true
   */
  prose?: boolean;
  /**
   * Keep the elements `write()` hands out in the root value. With `false`
   * they are handed out and forgotten — `end()` returns the root without
   * them — so that an endless stream of elements runs in bounded memory.
   * @defaultValue true
   */
  keepElements?: boolean;
}

/** What a lenient repair changed. */
export type JsonRepairKind =
  | "skipped-prefix"
  | "skipped-suffix"
  | "trailing-comma"
  | "comment"
  | "single-quotes"
  | "special-quotes"
  | "unquoted-key"
  | "python-literal"
  | "javascript-literal"
  | "number-as-string"
  | "unescaped-quote"
  | "inserted-comma"
  | "control-character"
  | "invalid-escape"
  | "closed-string"
  | "closed-array"
  | "closed-object"
  | "completed-literal"
  | "truncated-number"
  | "loose-number"
  | "inserted-colon"
  | "unquoted-string"
  | "opened-quote"
  | "closed-quote"
  | "placeholder"
  | "concatenated-string"
  | "function-wrapper"
  | "python-tuple"
  | "dropped-key"
  | "dropped-value"
  | "stopped";

/** One repair the lenient parser made, at an offset of the whole text. */
export interface JsonRepair {
  /** What was repaired. */
  kind: JsonRepairKind;
  /** Offset in the whole text, in UTF-16 code units. */
  offset: number;
  /** A sentence saying what was repaired and where. */
  message: string;
}

/** What {@link JsonStreamParser.partialString} returns. */
export interface PartialString {
  /** The members of the open element read so far. */
  members: Record<string, unknown>;
  /** The key of the string. */
  key: string;
  /** The string's text so far. */
  text: string;
}

/** A push parser created by {@link createJsonStreamParser}. */
export interface JsonStreamParser {
  /**
   * Feeds the next piece of text.
   *
   * @param chunk - the next characters of the text, of any length.
   * @returns the elements of the root array (or of the array under one of
   *   `unwrapKeys`) completed by this chunk, in order. When nothing
   *   completed, the same empty array is returned each time: copy it before
   *   adding to it.
   * @throws {@link JsonStreamError} in strict mode, on the first character
   *   `JSON.parse` would reject, or past a limit.
   */
  write(chunk: string): unknown[];
  /**
   * Ends the text.
   *
   * @returns the whole root value. In lenient mode a truncated value is closed
   *   as far as it got and the repairs are listed in {@link JsonStreamParser.repairs}.
   * @throws {@link JsonStreamError} when the text is incomplete (strict), holds
   *   no JSON value at all (lenient), or went past a limit.
   */
  end(): unknown;
  /** Repairs made so far (lenient mode; the first 1000 are kept, and a `"stopped"` one always). */
  readonly repairs: readonly JsonRepair[];
  /** Number of UTF-16 code units written so far. */
  readonly offset: number;
  /** The key of `unwrapKeys` whose array's elements were handed out, if any. */
  readonly unwrappedKey: string | undefined;
  /**
   * `"reading"` until the root value is complete; then `"done"`. With
   * `prose: false`, `"rejected"` when the text does not start with a value.
   */
  readonly status: "reading" | "done" | "rejected";
  /**
   * The string being written directly inside the open element of the array
   * `write()` hands out, when that element is an object: its members so
   * far and the string's key and text so far (escapes decoded, an escape
   * in progress left out). `undefined` at any other point, while a lenient
   * candidate is still tried, and in lenient states that may still change
   * the text read (a line end inside a string, a `+` concatenation). The
   * members are a copy.
   *
   * @returns the string in progress, or `undefined`.
   */
  partialString(): PartialString | undefined;
  /**
   * With `prose: false`, once {@link JsonStreamParser.status} is not
   * `"reading"`: the offset of the first character that is not part of the
   * value (where a rejected candidate failed, at least one past its start).
   */
  readonly restOffset: number | undefined;
}

/**
 * The next number sub-state, by sub-state (rows) and character class (columns, see {@link numberClass}): a digit
 * is the next sub-state, a letter a lenient `.5`, `-.5` or `+5` (`a` for sub-state 0, `d` for 3), and "." ends the
 * number.
 */
const NUMBER_STATES = [
  "12d....", // after "-"
  "..35...", // after "0": a digit ends the number (strict: fails)
  "2235...",
  "44.....",
  "44.5...",
  "77..66.",
  "77.....",
  "77.....",
  "12d.a0.", // N_START
].join("");

const MAX_REPAIRS = 1000;
const LOOSE_NUMBER = "Read a leading + or . in a number";
/** Values this short are shared between their occurrences, up to this many distinct ones. */
const MAX_SHARED_LENGTH = 16;
const MAX_SHARED = 4096;

/** What may come next, by mode (the structural modes, and those strict mode may end in). */
const EXPECTED: readonly string[] = [
  "a JSON value",
  "a value",
  'a value or "]"',
  "a value",
  '"," or "]"',
  'a string key or "}"',
  "a string key",
  '":"',
  '"," or "}"',
  "the end of the text",
  "a closing quote",
  "an escape character",
  "a hexadecimal digit",
  "a digit",
  "a literal",
];

// A Map, not an object: a bare word such as `constructor` or `__proto__` must
// not find a literal on Object.prototype.
// JavaScript's undefined, NaN and Infinity cannot be carried as JSON: they read as null, and say so.
/** A literal's value, and the language it comes from when JSON has no such word. */
type Literal = [value: unknown, language?: "Python" | "JavaScript"];
const LITERALS = new Map<string, Literal>([
  ["true", [true]],
  ["false", [false]],
  ["null", [null]],
  ["True", [true, "Python"]],
  ["False", [false, "Python"]],
  ["None", [null, "Python"]],
  ["undefined", [null, "JavaScript"]],
  ["NaN", [null, "JavaScript"]],
  ["Infinity", [null, "JavaScript"]],
  ["-Infinity", [null, "JavaScript"]],
]);

/** Thrown inside the lenient parser to unwind to `write()`; never escapes. */
const LENIENT_FAILURE = { lenientFailure: true };

function isIdentifierCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127;
}

/** A character that goes on a word started like a number: an ASCII letter, digit, "_", "$", "." or "-". */
function isNumberWordCode(c: number): boolean {
  return c < 128 && (isIdentifierCode(c) || c === 46 || c === 45);
}

/** JSON's whitespace, and (lenient) the other Unicode spaces, NEL and the zero-width space. */
function isSpace(c: number): boolean {
  return /[\s\x85\u200b]/.test(String.fromCharCode(c));
}

/** A character that opens a string: `"`, `'` (lenient) or a typographic quote (lenient). */
function isQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 0x201c || c === 0x2018 || c === 0x201d;
}

/** A character's class in a number: "0", "1" to "9", ".", "e" or "E", "+", "-", anything else (0 to 6). */
function numberClass(c: number): number {
  return c >= 48 && c <= 57 ? +(c > 48) : c === 46 ? 2 : (c | 32) === 101 ? 3 : c === 43 ? 4 : c === 45 ? 5 : 6;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function describe(c: number): string {
  if (Number.isNaN(c)) return "end of input";
  if (c < 32 || c === 127) return `character U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  return `character ${JSON.stringify(String.fromCharCode(c))}`;
}

function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    // A plain assignment would replace the prototype; JSON.parse makes an own property.
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** Rejects options that would make the parser misbehave, naming the option and the value. */
function checkOptions(options: JsonStreamParserOptions): void {
  const fail = (message: string): never => {
    throw new PlankitError("invalid-options", `createJsonStreamParser: ${message}`);
  };
  if (typeof options !== "object" || options === null) fail(`options must be an object, got ${String(options)}`);
  for (const name of ["strict", "prose", "keepElements"] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== "boolean")
      fail(`${name} must be a boolean, got ${JSON.stringify(value)}`);
  }
  for (const name of ["maxDepth", "maxTokenSize"] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      fail(`${name} must be an integer >= 1, got ${String(value)}`);
  }
  const keys = options.unwrapKeys;
  if (keys !== undefined && !(Array.isArray(keys) && keys.every((key) => typeof key === "string"))) {
    fail(`unwrapKeys must be an array of strings, got ${JSON.stringify(keys)}`);
  }
}

class Parser implements JsonStreamParser {
  readonly repairs: JsonRepair[] = [];
  offset = 0;

  readonly #strict: boolean;
  readonly #maxDepth: number;
  readonly #maxTokenSize: number;

  #mode: number;
  #returnMode = 0; // mode to go back to after a comment
  #ended = false;
  #failure: JsonStreamError | undefined;

  // Containers under construction, outermost first.
  readonly #stack: unknown[] = [];
  readonly #isArray: boolean[] = [];
  readonly #isTuple: boolean[] = []; // lenient: an array written as a Python tuple, closed by ")"
  readonly #keys: (string | undefined)[] = [];
  #depth = 0;

  #root: unknown = undefined;
  #hasRoot = false;
  // What write() returns when the chunk completed no element: the same empty
  // array every time. A fresh array per call measurably slows a parse at
  // model-token chunk sizes once the heap is large (see the benchmark).
  readonly #none: unknown[] = [];
  #out: unknown[] = this.#none;
  // A scalar element (a number, boolean or null) waiting for "," or "]"; undefined when none is.
  #pendingValue: unknown = undefined;
  readonly #keepElements: boolean;
  readonly #shared = new Map<string, string>();
  readonly #unwrapKeys: readonly string[];
  #emitDepth = 0; // depth of the array whose elements are emitted (0: none open yet; -1: it closed, none will be)
  unwrappedKey: string | undefined;
  #finishing = false;
  #keyQuoted = false; // the last key was quoted (a missing colon after it may be inserted)
  #openParens = 0; // lenient: `Name(` wrappers whose ")" is still to come
  #skipParen = false; // lenient: the "(" of a wrapper is next
  #concatenating = false; // lenient: after `"a" +`, the next string joins the previous one
  #unquotedAt = 0; // lenient: where the unquoted string began
  #lineEnd = ""; // lenient: the line end (and blanks) read after STRING_EOL, or the blanks after a quote
  #quoteAt = 0; // lenient: where the quote of STRING_QUOTE is
  #keptQuote = -1; // lenient: where in the string the last unescaped quote kept in it is, or -1
  #keptQuoteAt = 0; // lenient: that quote's offset in the whole text

  // Token state.
  #text = ""; // string, key, number, literal or identifier text so far
  #tokenIsKey = false;
  #closeQuote = 34;
  #unicodeValue = 0; // the value of the digits of a \u escape so far
  #unicodeDigits = 0; // how many there are
  #rawFrom = 0; // lenient: the string's text from here on is as written (no escape decoded)
  #numberState = 0;
  #literal = "";

  // Lenient: the candidate root value being tried, and the text since it began.
  #speculating = false;
  #speculationStart = 0;
  // The chunks written since the candidate began (the first holds its start), kept
  // by reference so that backtracking can re-read them without copying.
  #window: string[] = [];
  #windowBases: number[] = [];
  #sawContent = false; // a non-space character was seen in the preamble
  #suffixNoted = false;
  #failedAt = 0;
  readonly #prose: boolean;
  #rejected = false;
  restOffset: number | undefined = undefined;

  constructor(options: JsonStreamParserOptions) {
    checkOptions(options);
    this.#strict = options.strict ?? false;
    this.#maxDepth = options.maxDepth ?? 512;
    this.#maxTokenSize = options.maxTokenSize ?? 16 * 1024 * 1024;
    this.#unwrapKeys = options.unwrapKeys ?? [];
    this.#prose = options.prose ?? true;
    this.#keepElements = options.keepElements ?? true;
    this.#mode = this.#strict ? VALUE : PREAMBLE;
  }

  write(chunk: string): unknown[] {
    if (this.#ended) throw new TypeError("JsonStreamParser.write() was called after end()");
    if (this.#failure !== undefined) {
      if (this.#strict) throw this.#failure;
      this.offset += chunk.length;
      return [];
    }
    if (this.#none.length !== 0) this.#none.length = 0; // a caller added to it
    this.#out = this.#none;
    if (this.#strict) {
      this.#feed(chunk, this.offset, 0); // strict errors propagate as they are
    } else {
      this.#run(chunk, this.offset);
    }
    this.offset += chunk.length;
    if (!this.#prose && this.restOffset === undefined && this.#mode === AFTER_ROOT && this.#openParens === 0)
      this.restOffset = this.offset;
    if (this.#speculating && this.offset - this.#speculationStart > this.#maxTokenSize) this.#commit();
    return this.#out;
  }

  partialString(): PartialString | undefined {
    const mode = this.#mode;
    if (
      (mode !== STRING && mode !== ESCAPE && mode !== UNICODE) ||
      this.#tokenIsKey ||
      this.#concatenating ||
      this.#speculating
    )
      return undefined;
    const d = this.#emitDepth;
    if (d <= 0 || this.#depth !== d + 1 || this.#isArray[d] !== false) return undefined;
    const key = this.#keys[d];
    if (key === undefined) return undefined;
    return { members: { ...(this.#stack[d] as Record<string, unknown>) }, key, text: this.#text };
  }

  get status(): "reading" | "done" | "rejected" {
    if (this.#rejected) return "rejected";
    return this.#hasRoot &&
      (this.#mode === DONE || (this.#mode === AFTER_ROOT && this.#openParens === 0)) &&
      !this.#speculating
      ? "done"
      : "reading";
  }

  end(): unknown {
    if (this.#ended) throw new TypeError("JsonStreamParser.end() was called twice");
    this.#ended = true;
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#strict) return this.#endStrict();
    if (this.#mode !== AFTER_ROOT && this.#mode !== DONE) this.#finish(this.offset);
    if (!this.#hasRoot) {
      throw new JsonStreamError(
        "json-syntax",
        `No JSON value found in the text (${this.offset} characters)`,
        this.offset,
        EXPECTED[PREAMBLE]!,
      );
    }
    return this.#root;
  }

  #endStrict(): unknown {
    if (this.#mode === NUMBER && this.#depth === 0 && this.#numberComplete()) {
      this.#completeValue(Number(this.#text));
    }
    if (this.#mode !== AFTER_ROOT) {
      const expected = EXPECTED[this.#mode] ?? "more input";
      throw new JsonStreamError(
        "json-syntax",
        `Unexpected end of JSON input at offset ${this.offset}: expected ${expected}`,
        this.offset,
        expected,
      );
    }
    return this.#root;
  }

  /** Feeds `chunk` (which starts at `base` in the whole text), backtracking failed lenient candidates. */
  #run(chunk: string, base: number): void {
    // Allocated only to back out of a failed candidate: the common case costs nothing.
    let pieces: string[] | undefined;
    let bases: number[] | undefined;
    let piece = 0;
    let from = 0;
    for (;;) {
      try {
        if (pieces === undefined || bases === undefined) {
          if (this.#speculating) this.#feedPiece(chunk, base, 0);
          else this.#feed(chunk, base, 0);
        } else {
          for (; piece < pieces.length; piece++, from = 0) this.#feedPiece(pieces[piece]!, bases[piece]!, from);
        }
        return;
      } catch (error) {
        if (error !== LENIENT_FAILURE) throw error;
        if (!this.#speculating) return;
        // Where the candidate failed, one character after its start at least.
        const resume = Math.max(this.#failedAt, this.#speculationStart + 1);
        if (!this.#prose) {
          // One candidate only: the caller reads on from where it failed.
          this.restOffset = resume;
          this.#resetToPreamble();
          this.#rejected = true;
          this.#mode = DONE;
          return;
        }
        // The candidate was not the root value: resume the preamble where it failed.
        // Candidates inside the failed text are not retried, so every character is
        // read a bounded number of times.
        pieces = this.#window;
        bases = this.#windowBases;
        this.#resetToPreamble();
        piece = 0;
        while (piece < pieces.length && bases[piece]! + pieces[piece]!.length <= resume) piece++;
        from = piece < pieces.length ? resume - bases[piece]! : 0;
      }
    }
  }

  /** Feeds a piece of text, kept in the window while a candidate root value is tried. */
  #feedPiece(text: string, base: number, from: number): void {
    // An empty piece is not kept: the next one starts at the same offset and would be taken for it, and lost
    // from the window (a model stream's empty text part before a failed candidate lost the text after it).
    if (text === "") return;
    if (this.#speculating && this.#windowBases[this.#windowBases.length - 1] !== base) {
      this.#window.push(text);
      this.#windowBases.push(base);
    }
    this.#feed(text, base, from);
  }

  #resetToPreamble(): void {
    this.#mode = PREAMBLE;
    this.#depth = 0;
    this.#stack.length = 0;
    this.#isArray.length = 0;
    this.#keys.length = 0;
    this.#root = undefined;
    this.#hasRoot = false;
    this.#pendingValue = undefined;
    this.#emitDepth = 0;
    this.unwrappedKey = undefined;
    this.#text = "";
    this.#concatenating = false;
    this.#openParens = 0;
    this.#skipParen = false;
    this.#lineEnd = "";
    this.#speculating = false;
    this.#window = [];
    this.#windowBases = [];
    this.#sawContent = true;
    this.repairs.length = 0;
  }

  #commit(): void {
    this.#speculating = false;
    this.#window = [];
    this.#windowBases = [];
  }

  #repair(kind: JsonRepairKind, offset: number, message: string): void {
    // A stop is always kept: it says the rest of the text was not read.
    if (this.repairs.length < MAX_REPAIRS || kind === "stopped")
      this.repairs.push({ kind, offset, message: `${message} at offset ${offset}` });
  }

  /** A syntax error at `offset`: thrown in strict mode; a backtrack or a clean stop in lenient mode. */
  #fail(offset: number, found: string, expected: string): never {
    const message = `Unexpected ${found} at offset ${offset}: expected ${expected}`;
    if (this.#strict) {
      this.#failure = new JsonStreamError("json-syntax", message, offset, expected);
      throw this.#failure;
    }
    this.#failedAt = offset;
    if (!this.#speculating) {
      this.restOffset ??= offset;
      this.#repair("stopped", offset, `Stopped at unexpected ${found} (expected ${expected}); the rest was ignored`);
      this.#finish(offset);
      this.#mode = DONE;
    }
    throw LENIENT_FAILURE;
  }

  /** Lenient: an escape JSON lacks, `\\` then `written` at `offset`, reads as `written`. */
  #keepEscape(written: string, offset: number): void {
    this.#repair("invalid-escape", offset, `Kept the characters of an invalid escape \\${written}`);
    this.#text += written;
    this.#mode = STRING;
  }

  /** Character `c` at `offset` is not what the mode expects. */
  #unexpected(offset: number, c: number): never {
    return this.#fail(offset, describe(c), EXPECTED[this.#mode]!);
  }

  #limit(code: JsonStreamErrorCode, offset: number, message: string, expected: string): never {
    const error = new JsonStreamError(code, `${message} at offset ${offset}`, offset, expected);
    this.#failure = error;
    if (this.#strict) throw error;
    this.restOffset ??= offset;
    this.#rejected = !this.#hasRoot;
    this.#mode = DONE;
    this.#speculating = false;
    throw LENIENT_FAILURE;
  }

  /** Adds `piece`, which ends at `offset`, to the text of the token. */
  #append(piece: string, offset: number): void {
    this.#text += piece;
    if (this.#text.length > this.#maxTokenSize) {
      this.#limit(
        "json-token-size",
        offset,
        `A single token is longer than maxTokenSize (${this.#maxTokenSize})`,
        "a shorter token",
      );
    }
  }

  /**
   * Reports the text after the root value, from its first character that is not a space, once. (With `prose: false`
   * that text is the caller's: `#feed` stops before it.)
   */
  #noteSuffix(text: string, from: number, base: number): void {
    if (this.#suffixNoted) return;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (!isSpace(c)) {
        this.#repair("skipped-suffix", base + i, "Skipped text after the JSON value");
        this.#suffixNoted = true;
        return;
      }
    }
  }

  /** A value is complete: attach it to its container (or make it the root) and emit it if it is a root element. */
  #completeValue(value: unknown): void {
    const depth = this.#depth;
    if (depth === 0) {
      this.#root = value;
      this.#hasRoot = true;
      this.#mode = AFTER_ROOT;
      if (this.#speculating && ((typeof value === "object" && value !== null) || !this.#prose)) this.#commit();
      return;
    }
    const d = depth - 1;
    const container = this.#stack[d];
    if (this.#isArray[d] === true) {
      const handOut = d === this.#emitDepth - 1 && !this.#finishing;
      if (this.#keepElements || !handOut) (container as unknown[]).push(value);
      this.#mode = ARRAY_NEXT;
      if (d === 0 && this.#speculating) this.#commit();
      if (handOut) {
        if (typeof value === "string" || (typeof value === "object" && value !== null)) this.#emit(value);
        else this.#pendingValue = value;
      }
    } else {
      setMember(container as Record<string, unknown>, this.#keys[d]!, value);
      this.#mode = OBJECT_NEXT;
      if (d === 0 && this.#speculating) this.#commit();
    }
  }

  #emit(element: unknown): void {
    if (this.#out === this.#none) this.#out = [element];
    else this.#out.push(element);
  }

  #flushPending(): void {
    if (this.#pendingValue !== undefined) {
      this.#emit(this.#pendingValue);
      this.#pendingValue = undefined;
    }
  }

  #open(array: boolean, offset: number): void {
    if (this.#depth >= this.#maxDepth) {
      this.#limit("json-depth", offset, `Nesting is deeper than maxDepth (${this.#maxDepth})`, "a shallower value");
    }
    const d = this.#depth++;
    if (array && this.#emitDepth === 0) {
      // The array whose elements write() hands out: the root, or the first
      // array under one of `unwrapKeys` of a root object.
      if (d === 0) this.#emitDepth = 1;
      else if (d === 1 && this.#isArray[0] === false && this.#unwrapKeys.includes(this.#keys[0]!)) {
        this.#emitDepth = 2;
        this.unwrappedKey = this.#keys[0];
      }
    }
    this.#stack[d] = array ? [] : {};
    this.#isArray[d] = array;
    this.#isTuple[d] = false;
    this.#keys[d] = undefined;
    this.#mode = array ? ARRAY_FIRST : OBJECT_FIRST;
  }

  #close(): void {
    const d = --this.#depth;
    const container = this.#stack[d];
    this.#stack[d] = undefined;
    if (d === this.#emitDepth - 1) this.#emitDepth = -1;
    this.#completeValue(container);
  }

  #startString(quote: number, isKey: boolean, offset: number): void {
    if (quote !== 34) {
      if (quote === 39) this.#repair("single-quotes", offset, "Read a single-quoted string");
      else this.#repair("special-quotes", offset, "Read a string in typographic quotes");
    }
    this.#closeQuote = quote === 0x201c ? 0x201d : quote === 0x2018 ? 0x2019 : quote;
    this.#tokenIsKey = isKey;
    if (isKey) this.#keyQuoted = true;
    this.#text = "";
    this.#keptQuote = -1;
    this.#rawFrom = 0;
    this.#mode = STRING;
  }

  #endString(): void {
    let text = this.#text;
    this.#text = "";
    if (text.length <= MAX_SHARED_LENGTH && !this.#tokenIsKey) {
      // Short values repeat (types, names, enum values): one copy of each is
      // shared, as JSON.parse does, instead of one per occurrence. Looking it
      // up also flattens a string grown from pieces.
      const shared = this.#shared.get(text);
      if (shared !== undefined) text = shared;
      else if (this.#shared.size < MAX_SHARED) this.#shared.set(text, text);
    } else if (text.length > 1) {
      // A string grown chunk by chunk is a chain of pieces; reading one character
      // makes the engine flatten it now, while the pieces are still young and cheap
      // to collect, instead of keeping the chain alive inside the parsed value.
      text.charCodeAt(0);
    }
    if (this.#tokenIsKey) {
      this.#keys[this.#depth - 1] = text;
      this.#mode = COLON;
    } else if (this.#concatenating) {
      this.#concatenating = false;
      this.#completeValue(`${String(this.#lastValue(true))}${text}`);
    } else {
      this.#completeValue(text);
    }
  }

  #numberComplete(): boolean {
    // After "0", integer, fraction or exponent digits.
    return ((0b10010110 >> this.#numberState) & 1) === 1;
  }

  /** Starts a value at character `c`; returns false when `c` cannot start one. */
  #startValue(c: number, offset: number): boolean {
    // Only a string may follow a `+` that joins strings (never set in strict mode).
    if (this.#concatenating && !isQuote(c)) {
      return this.#fail(offset, describe(c), "a string to join");
    }
    switch (c) {
      case 34:
        this.#startString(34, false, offset);
        return true;
      case 123:
        this.#open(false, offset);
        return true;
      case 91:
        this.#open(true, offset);
        return true;
      default:
        break;
    }
    if (c === 45 || (c >= 48 && c <= 57) || (!this.#strict && (c === 43 || (c === 46 && this.#depth === 0)))) {
      // The number scanner consumes this character itself.
      this.#text = "";
      this.#numberState = N_START;
      this.#mode = NUMBER;
      return false;
    }
    if (this.#strict) {
      if (c === 116 || c === 102 || c === 110) {
        this.#literal = c === 116 ? "true" : c === 102 ? "false" : "null";
        this.#text = "";
        this.#mode = LITERAL;
        return false;
      }
      return this.#unexpected(offset, c);
    }
    if (isQuote(c)) {
      this.#startString(c, false, offset);
      return true;
    }
    if (isIdentifierStart(c)) {
      this.#text = "";
      this.#tokenIsKey = false;
      this.#mode = IDENT;
      return false;
    }
    if (c === 40) {
      this.#repair("python-tuple", offset, "Read a Python tuple as an array");
      this.#open(true, offset);
      this.#isTuple[this.#depth - 1] = true;
      return true;
    }
    if ((c === 46 || c === 0x2026) && this.#depth > 0) {
      // A `...` placeholder for elements left out.
      this.#text = "";
      this.#mode = ELLIPSIS;
      return false;
    }
    return this.#unexpected(offset, c);
  }

  /** Starts an object key at character `c`. */
  #startKey(c: number, offset: number): boolean {
    if (c === 34 || (!this.#strict && isQuote(c))) {
      this.#startString(c, true, offset);
      return true;
    }
    if (!this.#strict) {
      if (isIdentifierCode(c) || c === 45) {
        this.#text = "";
        this.#tokenIsKey = true;
        this.#keyQuoted = false;
        this.#mode = IDENT;
        return false;
      }
      if (c === 46 || c === 0x2026) {
        this.#text = "";
        this.#keys[this.#depth - 1] = undefined;
        this.#mode = ELLIPSIS;
        return false;
      }
    }
    return this.#unexpected(offset, c);
  }

  /** The heart of the parser: consumes `text`, whose first character is at `base` in the whole text. */
  #feed(text: string, base: number, from: number): void {
    const n = text.length;
    const strict = this.#strict;
    let i = from;
    while (i < n) {
      const mode = this.#mode;
      if (mode === AFTER_ROOT && !this.#prose && !strict && this.#openParens === 0) {
        this.restOffset ??= base + i;
        return;
      }
      if (mode === STRING) {
        const quote = this.#closeQuote;
        let j = i;
        let c = 0;
        // Fast path: copy the run of ordinary characters with one slice.
        while (j < n) {
          c = text.charCodeAt(j);
          if (c === quote || c === 92 || c < 32) break;
          j++;
        }
        if (j > i) this.#append(text.slice(i, j), base + j);
        if (j === n) return;
        i = j + 1;
        if (c === quote) {
          // An element handed out closes at once, on time (unless a quote after a line end was kept in it).
          if (strict || this.#tokenIsKey || (this.#depth === this.#emitDepth && this.#keptQuote < 0)) this.#endString();
          else {
            // The next character decides (an element handed out closes at once, on time).
            this.#quoteAt = base + j;
            this.#lineEnd = "";
            this.#mode = STRING_QUOTE;
          }
        } else if (c === 92) this.#mode = ESCAPE;
        else if (strict) this.#fail(base + j, describe(c), "an escaped control character");
        else if ((c === 10 || c === 13) && !this.#tokenIsKey && this.#depth > 0) {
          // Maybe the closing quote is missing at the line end: the next line decides.
          this.#lineEnd = String.fromCharCode(c);
          this.#mode = STRING_EOL;
        } else {
          this.#repair("control-character", base + j, "Kept a raw control character inside a string");
          this.#text += String.fromCharCode(c);
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (mode > AFTER_ROOT || mode === PREAMBLE) {
        // Token modes (structural ones are VALUE through AFTER_ROOT) live in their own method.
        const next = this.#feedToken(text, base, i, mode, c);
        if (next === -1) return;
        if (next !== -2) {
          i = next;
          continue;
        }
      }

      // Structural modes: skip whitespace (and, leniently, comments), then act on the character.
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
        continue;
      }
      if (!strict) {
        if (c >= 0x85 && isSpace(c)) {
          i++;
          continue;
        }
        // After the root value, a comment is text after it like any other (unless that value, a scalar, is still
        // tried: then a `//` or `/*` comment is skipped, and a `#` is prose).
        if ((c === 47 && this.#speculating) || ((c === 47 || c === 35) && mode !== AFTER_ROOT)) {
          this.#returnMode = mode;
          this.#mode = COMMENT_START;
          // A `#` comment, as in Python and YAML, to the line end.
          if (c === 35) {
            this.#repair("comment", base + i, "Skipped a comment");
            this.#mode = LINE_COMMENT;
          }
          i++;
          continue;
        }
      }
      const offset = base + i;
      switch (mode) {
        case VALUE:
        case ARRAY_FIRST:
        case ARRAY_VALUE:
          if (this.#skipParen && c === 40) {
            this.#skipParen = false;
            i++;
            continue;
          }
          if (mode !== VALUE && (c === 93 || this.#closesTuple(c)) && (mode === ARRAY_FIRST || !strict)) {
            if (mode === ARRAY_VALUE) this.#repair("trailing-comma", offset, "Ignored a trailing comma");
            this.#close();
            i++;
            continue;
          }
          if (this.#startValue(c, offset)) i++;
          continue;
        case ARRAY_NEXT:
          if (!strict && !this.#closesTuple(c) && this.#closeWrapperOrJoin(c, offset)) {
            i++;
            continue;
          }
          if (c === 44) {
            this.#flushPending();
            this.#mode = ARRAY_VALUE;
            i++;
            continue;
          }
          if (c === 93 || this.#closesTuple(c)) {
            this.#flushPending();
            this.#close();
            i++;
            continue;
          }
          if (!strict && this.#canStartValue(c)) {
            this.#repair("inserted-comma", offset, "Inserted a missing comma between array elements");
            this.#flushPending();
            this.#mode = ARRAY_VALUE;
            continue;
          }
          this.#unexpected(offset, c);
          continue;
        case OBJECT_FIRST:
        case OBJECT_KEY:
          if (c === 125 && (mode === OBJECT_FIRST || !strict)) {
            if (mode === OBJECT_KEY) this.#repair("trailing-comma", offset, "Ignored a trailing comma");
            this.#close();
            i++;
            continue;
          }
          if (this.#startKey(c, offset)) i++;
          continue;
        case COLON:
          if (c === 58) {
            this.#mode = VALUE;
            i++;
            continue;
          }
          if (!strict && this.#keyQuoted && this.#canStartValue(c)) {
            this.#repair("inserted-colon", offset, "Inserted a missing colon after a key");
            this.#mode = VALUE;
            continue;
          }
          this.#unexpected(offset, c);
          continue;
        case OBJECT_NEXT:
          if (!strict && this.#closeWrapperOrJoin(c, offset)) {
            i++;
            continue;
          }
          if (c === 44) {
            this.#mode = OBJECT_KEY;
            i++;
            continue;
          }
          if (c === 125) {
            this.#close();
            i++;
            continue;
          }
          if (!strict && (isQuote(c) || isIdentifierStart(c))) {
            this.#repair("inserted-comma", offset, "Inserted a missing comma between object members");
            this.#mode = OBJECT_KEY;
            continue;
          }
          this.#unexpected(offset, c);
          continue;
        case AFTER_ROOT:
          if (this.#openParens > 0) {
            // The ")" of a wrapper around the root value: `ISODate("…")`, `callback({…})`.
            if (c === 41) {
              this.#openParens--;
              i++;
              continue;
            }
            // It is not coming: what follows is after the value.
            this.#openParens = 0;
            continue;
          }
          if (strict || this.#speculating) this.#unexpected(offset, c);
          this.#noteSuffix(text, i, base);
          return;
        default:
          throw new Error(`plankit JSON parser reached an unknown mode ${mode}`);
      }
    }
  }

  /**
   * Consumes the token (or preamble, or comment) in progress at `text[i]` (character `c`): returns
   * the index to go on from, -1 when the chunk is used up, or -2 in a structural mode.
   */
  #feedToken(text: string, base: number, i: number, mode: number, c: number): number {
    const n = text.length;
    const strict = this.#strict;
    switch (mode) {
      case ESCAPE: {
        const k = '"\\/bfnrt'.indexOf(text[i]!);
        if (k >= 0) {
          this.#text += '"\\/\b\f\n\r\t'[k];
          this.#mode = STRING;
        } else if (c === 117) {
          this.#unicodeValue = 0;
          this.#unicodeDigits = 0;
          this.#mode = UNICODE;
        } else if (strict) {
          this.#fail(base + i, describe(c), "an escape character");
        } else {
          this.#keepEscape(String.fromCharCode(c), base + i);
        }
        this.#rawFrom = this.#text.length;
        i++;
        return i;
      }
      case UNICODE: {
        const h = hexValue(c);
        if (h < 0) {
          if (strict) this.#fail(base + i, describe(c), "a hexadecimal digit");
          // "u" and the digits so far (their letters in lower case); the character is ordinary string content.
          const digits = (this.#unicodeValue + 16 ** this.#unicodeDigits).toString(16).slice(1);
          this.#keepEscape(`u${digits}`, base + i - digits.length - 1);
          return i;
        }
        this.#unicodeValue = this.#unicodeValue * 16 + h;
        if (++this.#unicodeDigits === 4) {
          this.#text += String.fromCharCode(this.#unicodeValue);
          this.#rawFrom = this.#text.length;
          this.#mode = STRING;
        }
        i++;
        return i;
      }
      case NUMBER: {
        let j = i;
        let state = this.#numberState;
        for (; j < n; j++) {
          let next = NUMBER_STATES.charCodeAt(state * 7 + numberClass(text.charCodeAt(j))) - 48;
          if (next < 0 || (next > N_START && strict)) break;
          if (next > N_START) {
            // Lenient: `.5`, `-.5`, `+5`.
            next -= 49;
            this.#repair("loose-number", base + j, LOOSE_NUMBER);
          }
          state = next;
        }
        if (strict && state === N_ZERO && numberClass(text.charCodeAt(j)) === 1)
          this.#fail(base + j, describe(text.charCodeAt(j)), '".", "e" or the end of the number');
        this.#numberState = state;
        this.#append(text.slice(i, j), base + j);
        if (j === n) return -1;
        const d = text.charCodeAt(j);
        // A complete number has a digit; only a cut-off one is searched for one.
        const complete = this.#numberComplete();
        const digit = complete || /\d/.test(this.#text);
        if (
          !strict &&
          (digit ? isNumberWordCode(d) || state === N_E || state === N_E_SIGN : this.#text === "-" && d === 73)
        ) {
          // `007`, `1.2.3`, `0x1F`, `2024-01-01`, `-Infinity`, and `2e` before a delimiter (no number
          // cut short by the end): a word that starts like a number.
          this.#unquotedAt = base + j - this.#text.length;
          this.#mode = NUMBER_WORD;
          return j;
        }
        if (complete) {
          this.#completeValue(Number(this.#text));
        } else if (strict || !digit) {
          // A sign or a dot without a digit is no number.
          this.#fail(base + j, describe(text.charCodeAt(j)), "a digit");
        } else {
          this.#completeTruncatedNumber(base + j);
        }
        this.#text = "";
        i = j;
        return i;
      }
      case LITERAL: {
        const literal = this.#literal;
        let k = this.#text.length;
        while (i < n && k < literal.length) {
          const d = text.charCodeAt(i);
          if (d !== literal.charCodeAt(k)) this.#fail(base + i, describe(d), `${JSON.stringify(literal)}`);
          i++;
          k++;
        }
        if (k === literal.length) {
          this.#text = "";
          this.#completeValue(LITERALS.get(literal)![0]);
        } else {
          this.#text = literal.slice(0, k);
        }
        return i;
      }
      case IDENT: {
        let j = i;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (!(isIdentifierCode(d) || (this.#tokenIsKey && d === 45))) break;
          j++;
        }
        this.#append(text.slice(i, j), base + j);
        if (j === n) return -1;
        return j + this.#endIdentifier(base + j, text.charCodeAt(j));
      }
      case NUMBER_WORD: {
        let j = i;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (!isNumberWordCode(d)) break;
          j++;
        }
        this.#append(text.slice(i, j), base + j);
        if (j === n) return -1;
        this.#endNumberWord();
        return j;
      }
      case UNQUOTED: {
        let j = i;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 44 || d === 125 || d === 93 || d === 10 || d === 13) break;
          j++;
        }
        this.#append(text.slice(i, j), base + j);
        if (j === n) return -1;
        this.#endUnquoted();
        return j;
      }
      case ELLIPSIS: {
        const d = this.#depth - 1;
        if (this.#text === "." && c >= 48 && c <= 57 && (this.#isArray[d] === true || this.#keys[d] !== undefined)) {
          // `.5`: a number after all; the number scanner reads on from its dot.
          this.#repair("loose-number", base + i - 1, LOOSE_NUMBER);
          this.#numberState = N_DOT;
          this.#mode = NUMBER;
          return i;
        }
        if (c === 46 || c === 0x2026) {
          this.#text += String.fromCharCode(c);
          i++;
          return i;
        }
        this.#endPlaceholder(base + i);
        return i;
      }
      case STRING_QUOTE: {
        if (c === 32 || c === 9) {
          this.#lineEnd += String.fromCharCode(c);
          return i + 1;
        }
        // A quote followed by a word or by ".", "!" or "?" goes on inside the string (`"he said "hi" to me"`,
        // `"she said "hi"."`); before anything else (",", ":", "}", "]", a comment, a line end, the end,
        // the markup around the value) it closes the string.
        if ((isIdentifierCode(c) && !isSpace(c)) || c === 46 || c === 33 || c === 63) {
          this.#repair("unescaped-quote", this.#quoteAt, "Kept an unescaped quote inside a string");
          this.#keptQuote = this.#text.length;
          this.#keptQuoteAt = this.#quoteAt;
          this.#text += String.fromCharCode(this.#closeQuote) + this.#lineEnd;
          this.#mode = STRING;
          return i;
        }
        const kept = this.#keptQuote;
        const before = kept < 0 ? "" : this.#text.slice(0, kept);
        const array = this.#isArray[this.#depth - 1] === true;
        if (
          kept >= 0 &&
          !this.#concatenating &&
          (array ? (c === 44 || c === 93 || c === 10 || c === 13) && /[,\n\r]\s*$/.test(before) : c === 58)
        ) {
          // `"abc, "b": 2`, `["abc, "d"]`, `["abc⏎"d"]`: the kept quote opened the next key or element,
          // and the string before it lacks its closing quote.
          const after = this.#text.slice(kept + 1);
          const trimmed = before.trimEnd();
          this.#repair("closed-quote", this.#keptQuoteAt, "Closed a string whose closing quote is missing");
          if (!trimmed.endsWith(","))
            this.#repair(
              "inserted-comma",
              this.#keptQuoteAt,
              array
                ? "Inserted a missing comma between array elements"
                : "Inserted a missing comma between object members",
            );
          this.#text = trimmed.replace(/,$/, "").trimEnd();
          this.#endString();
          if (array) {
            this.#text = after;
            this.#endString();
          } else {
            this.#keys[this.#depth - 1] = after;
            this.#mode = COLON;
          }
          return i;
        }
        this.#endString();
        return i;
      }
      case STRING_EOL: {
        if (c === 32 || c === 9 || c === 10 || c === 13) {
          this.#lineEnd += String.fromCharCode(c);
          i++;
          return i;
        }
        if (c === 125 || c === 93 || c === 44) {
          this.#closeAtLineEnd(base + i);
          return i;
        }
        // Anything else goes on in the string; a quote may end it, or start the next key or element.
        this.#keepLineEnd(base + i);
        if (c !== this.#closeQuote) return i;
        this.#quoteAt = base + i;
        this.#mode = STRING_QUOTE;
        return i + 1;
      }
      case PREAMBLE: {
        // Lenient: find where the root value may start. "[" and "{" anywhere; a
        // scalar only as the very first non-space character of the text.
        let j = i;
        for (; j < n; j++) {
          const d = text.charCodeAt(j);
          if (d === 91 || d === 123 || !(this.#sawContent || isSpace(d))) break;
        }
        if (j === n) return -1;
        const d = text.charCodeAt(j);
        if (this.#sawContent) this.#repair("skipped-prefix", base + j, "Skipped text before the JSON value");
        this.#speculating = true;
        this.#speculationStart = base + j;
        this.#window = [text];
        this.#windowBases = [base];
        this.#sawContent = true;
        this.#mode = VALUE;
        i = j;
        if (this.#startValue(d, base + j)) i++;
        return i;
      }
      case COMMENT_START: {
        if (c === 47) this.#mode = LINE_COMMENT;
        else if (c === 42) this.#mode = BLOCK_COMMENT;
        else {
          this.#mode = this.#returnMode;
          this.#fail(base + i - 1, describe(47), EXPECTED[this.#returnMode]!);
        }
        this.#repair("comment", base + i - 1, "Skipped a comment");
        i++;
        return i;
      }
      case LINE_COMMENT: {
        let j = i;
        while (j < n && text.charCodeAt(j) !== 10 && text.charCodeAt(j) !== 13) j++;
        if (j < n) this.#mode = this.#returnMode;
        i = j;
        return i;
      }
      case BLOCK_COMMENT: {
        const j = text.indexOf("*", i);
        if (j < 0) return -1;
        this.#mode = BLOCK_COMMENT_STAR;
        i = j + 1;
        return i;
      }
      case BLOCK_COMMENT_STAR: {
        if (c === 47) this.#mode = this.#returnMode;
        else if (c !== 42) this.#mode = BLOCK_COMMENT;
        i++;
        return i;
      }
      case DONE:
        return -1;
      default:
        break;
    }
    return -2;
  }

  /** Whether `c` is the ")" that closes the innermost container, a tuple. */
  #closesTuple(c: number): boolean {
    return c === 41 && this.#isTuple[this.#depth - 1] === true;
  }

  /** After a value: the ")" of a `Name(…)` wrapper, or the "+" of a string concatenation. */
  #closeWrapperOrJoin(c: number, offset: number): boolean {
    if (c === 41 && this.#openParens > 0) {
      this.#openParens--;
      return true;
    }
    // Elements already handed out cannot change.
    if (c === 43 && typeof this.#lastValue(false) === "string" && this.#depth !== this.#emitDepth) {
      this.#repair("concatenated-string", offset, "Joined strings concatenated with +");
      this.#concatenating = true;
      this.#mode = VALUE;
      return true;
    }
    return false;
  }

  /** The value last read in the innermost container; `take` removes it from an array. */
  #lastValue(take: boolean): unknown {
    const d = this.#depth - 1;
    const container = this.#stack[d];
    if (this.#isArray[d] !== true) return (container as Record<string, unknown>)[this.#keys[d]!];
    return take ? (container as unknown[]).pop() : (container as unknown[]).at(-1);
  }

  /** A `...` placeholder ended at `offset`: it stands for nothing. */
  #endPlaceholder(offset: number): void {
    const dots = this.#text;
    this.#text = "";
    const d = this.#depth - 1;
    if (dots !== "…" && dots.length < 2) {
      this.#mode = this.#isArray[d] === true ? ARRAY_VALUE : VALUE;
      this.#fail(offset - dots.length, describe(46), "a value");
    }
    this.#repair("placeholder", offset - dots.length, `Dropped a ${JSON.stringify(dots)} placeholder`);
    this.#dropValue(offset, "whose value is a placeholder");
  }

  /** A word that starts like a number ended: `-Infinity` reads as null, any other as its characters. */
  #endNumberWord(): void {
    const word = this.#text;
    this.#text = "";
    const literal = LITERALS.get(word);
    if (literal !== undefined) {
      this.#completeLiteral(word, literal, this.#unquotedAt);
      return;
    }
    this.#repair(
      "number-as-string",
      this.#unquotedAt,
      `Read the unquoted value ${JSON.stringify(word.slice(0, 40))} as a string`,
    );
    this.#completeValue(word);
  }

  /** An unquoted string value ended: its text up to a ` //` or ` /*` comment, trimmed. */
  #endUnquoted(): void {
    const at = this.#unquotedAt;
    const comment = this.#text.search(/\s\/[/*]/);
    let value = (comment < 0 ? this.#text : this.#text.slice(0, comment)).trim();
    this.#text = "";
    if (value.endsWith('"') && !value.slice(0, -1).includes('"')) {
      value = value.slice(0, -1);
      this.#repair("opened-quote", at, "Read a string whose opening quote is missing");
    } else {
      this.#repair("unquoted-string", at, `Read the unquoted value ${JSON.stringify(value.slice(0, 40))} as a string`);
    }
    if (comment >= 0) this.#repair("comment", at + comment + 1, "Skipped a comment");
    this.#completeValue(value);
  }

  /** The string ends at the line end after all (its closing quote is missing); a comma just before it is a separator. */
  #closeAtLineEnd(offset: number): void {
    const end = offset - this.#lineEnd.length;
    this.#lineEnd = "";
    if (this.#closeBeforeBrackets(end)) return;
    if (this.#text.endsWith(",")) this.#text = this.#text.slice(0, -1);
    this.#repair("closed-quote", offset, "Closed a string whose closing quote is missing at the line end");
    this.#endString();
  }

  /**
   * A string whose closing quote is missing, written up to `end`: when it ends with "}" and "]" (with blanks and
   * commas) that close the containers around it, its quote belonged before them. Closes it there and them after it.
   */
  #closeBeforeBrackets(end: number): boolean {
    const text = this.#text;
    let start = text.length;
    while (start > this.#rawFrom && " \t\n\r,]}".includes(text[start - 1]!)) start--;
    let n = 0;
    for (let k = start; k < text.length; k++) {
      const c = text.charCodeAt(k);
      const d = this.#depth - 1 - n;
      if (c === 93 || c === 125) {
        if (d < 0 || c !== (this.#isArray[d] === true ? 93 : 125)) return false;
        n++;
      }
    }
    if (n === 0) return false;
    this.#repair("closed-quote", end - text.length + start, "Closed a string whose closing quote is missing");
    this.#text = text.slice(0, start);
    this.#endString();
    while (n-- > 0) this.#close();
    return true;
  }

  /** The line end belongs to the string after all. */
  #keepLineEnd(offset: number): void {
    this.#repair("control-character", offset, "Kept a raw control character inside a string");
    this.#text += this.#lineEnd;
    this.#lineEnd = "";
    this.#mode = STRING;
  }

  #canStartValue(c: number): boolean {
    return isQuote(c) || c === 123 || c === 91 || c === 45 || (c >= 48 && c <= 57) || isIdentifierStart(c);
  }

  /**
   * A bare word (lenient) ended at `offset`, before character `next`: an unquoted key, a literal, a wrapper or an
   * unquoted string. Returns 1 when it read `next` too: the closing quote of a string whose opening quote is missing.
   */
  #endIdentifier(offset: number, next: number): number {
    const word = this.#text;
    const at = offset - word.length;
    const d = this.#depth - 1;
    const literal = LITERALS.get(word);
    // `{a": 1}`, `["x", y"]`: a quote right after the word closes it (an object's value reads on, unquoted).
    const quoted = next === 34 && (this.#tokenIsKey || this.#isArray[d] === true) && !this.#concatenating;
    this.#text = "";
    if (quoted) this.#repair("opened-quote", at, "Read a string whose opening quote is missing");
    if (this.#tokenIsKey) {
      if (!quoted) this.#repair("unquoted-key", at, "Read an unquoted key");
      this.#keys[d] = word;
      this.#mode = COLON;
      this.#keyQuoted = quoted;
    } else if (quoted) {
      this.#completeValue(word);
    } else if (literal !== undefined) {
      this.#completeLiteral(word, literal, at);
    } else if (next === 40 && !this.#concatenating) {
      // `ObjectId("…")`, `ISODate("…")`, `Decimal("1.5")`, JSONP's `callback({…})`: the value inside.
      this.#repair("function-wrapper", at, `Read the value inside ${word}(…)`);
      this.#openParens++;
      this.#skipParen = true;
      this.#mode = this.#isArray[d] === true ? ARRAY_VALUE : VALUE;
    } else if (this.#isArray[d] === false && !this.#concatenating) {
      // An unquoted string value: read on to the end of the member.
      this.#text = word;
      this.#unquotedAt = at;
      this.#mode = UNQUOTED;
    } else {
      this.#mode = VALUE;
      this.#fail(at, `word ${JSON.stringify(word)}`, "a value");
    }
    return +quoted;
  }

  /** A literal `word` at `offset`: its value, and the repair of a Python or JavaScript one. */
  #completeLiteral(word: string, [value, language]: Literal, offset: number): void {
    if (language !== undefined)
      this.#repair(
        language === "Python" ? "python-literal" : "javascript-literal",
        offset,
        `Read ${language}'s ${word} as ${JSON.stringify(value)}`,
      );
    this.#completeValue(value);
  }

  #completeTruncatedNumber(offset: number): void {
    // Without its trailing ".", "e" or exponent sign.
    const text = this.#text.replace(/\D+$/, "");
    if (text === "") {
      this.#repair("dropped-value", offset, `Dropped an incomplete number ${JSON.stringify(this.#text)}`);
      this.#dropValue(offset);
      return;
    }
    this.#repair("truncated-number", offset, `Read the incomplete number ${JSON.stringify(this.#text)} as ${text}`);
    this.#completeValue(Number(text));
  }

  /** No value after all where one was expected: drop its key (saying `why`), or leave the array as it is. */
  #dropValue(offset: number, why = "which has no value"): void {
    if (this.#depth === 0) return;
    const d = this.#depth - 1;
    if (this.#isArray[d] === true) {
      this.#mode = ARRAY_NEXT;
    } else {
      if (this.#keys[d] !== undefined)
        this.#repair("dropped-key", offset, `Dropped the key ${JSON.stringify(this.#keys[d])}, ${why}`);
      this.#mode = OBJECT_NEXT;
    }
  }

  /** Closes everything still open at `offset`: the token in progress, then every container. */
  #finish(offset: number): void {
    this.#finishing = true;
    if (this.#pendingValue !== undefined && !this.#keepElements && this.#emitDepth > 0) {
      // Never handed out: it stays in the root value.
      (this.#stack[this.#emitDepth - 1] as unknown[]).push(this.#pendingValue);
    }
    this.#pendingValue = undefined;
    let mode = this.#mode;
    if (mode >= COMMENT_START && mode <= BLOCK_COMMENT_STAR) {
      mode = this.#returnMode;
      this.#mode = mode;
    }
    // A token that ends where the next character decides: ended by the end.
    if (mode === STRING_EOL) this.#closeAtLineEnd(offset);
    else if (mode === UNQUOTED) this.#endUnquoted();
    else if (mode === STRING_QUOTE) this.#endString();
    else if (mode === NUMBER_WORD) this.#endNumberWord();
    else if (mode === ELLIPSIS) {
      if (this.#text.length >= 2 || this.#text === "…") this.#endPlaceholder(offset);
      else this.#dropValue(offset);
    }
    mode = this.#mode;
    const inString = mode >= STRING && mode <= UNICODE;
    if (this.#tokenIsKey && (inString || mode === IDENT)) {
      this.#repair("dropped-key", offset, `Dropped the unfinished key ${JSON.stringify(this.#text)}`);
      this.#mode = OBJECT_NEXT;
    } else if (inString) {
      if (mode !== STRING || !this.#closeBeforeBrackets(offset)) {
        this.#repair("closed-string", offset, "Closed an unfinished string");
        this.#endString();
      }
    } else if (mode === NUMBER) {
      if (this.#numberComplete()) this.#completeValue(Number(this.#text));
      else this.#completeTruncatedNumber(offset);
    } else if (mode === IDENT) {
      // A literal cut short (`tr`, `Fals`) is completed; another word is dropped.
      const word = this.#text;
      const name = [...LITERALS.keys()].find((key) => word !== "" && key.startsWith(word));
      if (name === undefined) {
        this.#repair("dropped-value", offset, `Dropped the unfinished word ${JSON.stringify(word)}`);
        this.#dropValue(offset);
      } else {
        if (name !== word) this.#repair("completed-literal", offset, `Completed ${JSON.stringify(word)} to ${name}`);
        this.#completeValue(LITERALS.get(name)![0]);
      }
    } else if (mode === COLON || mode === VALUE) this.#dropValue(offset);
    while (this.#depth > 0) {
      const array = this.#isArray[this.#depth - 1] === true;
      this.#repair(
        array ? "closed-array" : "closed-object",
        offset,
        array ? 'Closed an unfinished array with "]"' : 'Closed an unfinished object with "}"',
      );
      this.#close();
    }
    this.#speculating = false;
    this.#mode = this.#hasRoot ? AFTER_ROOT : DONE;
  }
}

/**
 * Creates an incremental JSON parser. Feed it text with `write()`; each call
 * returns the elements of the root array that the chunk completed. `end()`
 * returns the whole value. The parser knows nothing of streams: see
 * {@link parseJsonStream} and {@link JsonElementStream} for those.
 *
 * Strict mode agrees with `JSON.parse`; lenient mode (the default) reads
 * model output — see the invariants in this module's documentation.
 *
 * @param options - `strict`, `maxDepth`, `maxTokenSize`, `unwrapKeys`, `prose`, `keepElements`.
 * @returns a fresh parser.
 *
 * @example
 * ```ts
 * const parser = createJsonStreamParser();
 * parser.write('Here is the plan:\n```json\n[{"id":"s1"},');   // → [{ id: "s1" }]
 * parser.write('{"id":"s2"}]\n```');                          // → [{ id: "s2" }]
 * parser.end();                                               // → [{ id: "s1" }, { id: "s2" }]
 * ```
 */
export function createJsonStreamParser(options: JsonStreamParserOptions = {}): JsonStreamParser {
  return new Parser(options);
}
