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
import { isIdentifierPart, isIdentifierStart } from "../shared/char-codes.ts";
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
const NUMBER_STATES =
  "12d...." + // after "-"
  "..35..." + // after "0": a digit ends the number (strict: fails)
  "2235..." +
  "44....." +
  "44.5..." +
  "77..66." +
  "77....." +
  "77....." +
  "12d.a0."; // N_START

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

/** An ASCII letter, digit, `_` or `$`, or any character past ASCII. */
function isIdentifierCode(c: number): boolean {
  return isIdentifierPart(c) || c > 127;
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
  readonly #isTuple: boolean[] = []; // lenient: an array written as a Python tuple, closed by ")"
  readonly #keys: (string | undefined)[] = [];
  #depth = 0;

  #root: unknown;
  #hasRoot = false;
  // What write() returns when the chunk completed no element: the same empty
  // array every time. A fresh array per call measurably slows a parse at
  // model-token chunk sizes once the heap is large (see the benchmark).
  readonly #none: unknown[] = [];
  #out: unknown[] = this.#none;
  // A scalar element (a number, boolean or null) waiting for "," or "]"; undefined when none is.
  #pendingValue: unknown;
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
  #token = ""; // string, key, number, literal or identifier text so far
  #tokenIsKey = false;
  #closeQuote = 34;
  #hexDigits = ""; // the digits of a \u escape so far
  #rawFrom = 0; // lenient: the string's text from here on is as written (no escape decoded)
  #numberState = 0;
  #strictLiteral = ""; // strict: the literal being read

  // Lenient: the candidate root value being tried, and the text since it began.
  #speculating = false;
  #speculationStart = 0;
  // The chunks written since the candidate began (the first holds its start), kept
  // by reference so that backtracking can re-read them without copying; one after
  // the other, from `#windowStart` to `#windowEnd` in the whole text.
  #windowTexts: string[] = [];
  #windowStart = 0;
  #windowEnd = 0;
  #sawContent = false; // a non-space character was seen in the preamble
  #suffixNoted = false;
  #failedAt = 0;
  readonly #prose: boolean;
  #rejected = false;
  restOffset: number | undefined;

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
    // After a lenient failure the parser is done: what follows is counted and not read.
    if (this.#strict && this.#failure !== undefined) throw this.#failure;
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
    // Only inside a string (STRING, ESCAPE or UNICODE) that is a value.
    const current = this.#mode;
    if (current < STRING || current > UNICODE || this.#tokenIsKey || this.#concatenating || this.#speculating)
      return undefined;
    const d = this.#emitDepth;
    if (d <= 0 || this.#depth !== d + 1 || this.#arrayAt(d)) return undefined;
    const key = this.#keys[d];
    if (key === undefined) return undefined;
    return { members: { ...(this.#stack[d] as Record<string, unknown>) }, key, text: this.#token };
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
    if (this.#strict) {
      // A number at the root ends with the text; anything else unfinished is an error.
      if (this.#mode === NUMBER && this.#depth === 0 && this.#numberComplete()) this.#endNumber(this.offset);
      if (this.#mode !== AFTER_ROOT) this.#fail(this.offset, "end of JSON input", EXPECTED[this.#mode]!);
    } else if (this.#mode !== AFTER_ROOT && this.#mode !== DONE) this.#finish(this.offset);
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

  /** Feeds `chunk` (which starts at `base` in the whole text), backtracking failed lenient candidates. */
  #run(chunk: string, base: number): void {
    // Allocated only to back out of a failed candidate: the common case costs nothing.
    let pieces: string[] | undefined;
    let piece = 0;
    let at = 0; // where pieces[piece] starts in the whole text
    let from = 0;
    for (;;) {
      try {
        if (pieces === undefined) {
          if (this.#speculating) this.#feedPiece(chunk, base, 0);
          else this.#feed(chunk, base, 0);
        } else {
          for (; piece < pieces.length; at += pieces[piece]!.length, piece++, from = 0)
            this.#feedPiece(pieces[piece]!, at, from);
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
        pieces = this.#windowTexts;
        at = this.#windowStart;
        this.#resetToPreamble();
        piece = 0;
        while (piece < pieces.length && at + pieces[piece]!.length <= resume) at += pieces[piece++]!.length;
        from = resume - at;
      }
    }
  }

  /** Feeds a piece of text, kept in the window while a candidate root value is tried. */
  #feedPiece(text: string, base: number, from: number): void {
    // An empty piece is not kept: the next one starts at the same offset and would be taken for it, and lost
    // from the window (a model stream's empty text part before a failed candidate lost the text after it).
    if (text === "") return;
    if (this.#speculating && base >= this.#windowEnd) {
      this.#windowTexts.push(text);
      this.#windowEnd = base + text.length;
    }
    this.#feed(text, base, from);
  }

  #resetToPreamble(): void {
    this.#mode = PREAMBLE;
    this.#depth = 0;
    this.#stack.length = 0;
    this.#keys.length = 0;
    this.#root = undefined;
    this.#hasRoot = false;
    this.#pendingValue = undefined;
    this.#emitDepth = 0;
    this.unwrappedKey = undefined;
    this.#token = "";
    this.#concatenating = false;
    this.#openParens = 0;
    this.#skipParen = false;
    this.#lineEnd = "";
    this.#speculating = false;
    this.#windowTexts = [];
    this.#sawContent = true;
    this.repairs.length = 0;
  }

  #commit(): void {
    this.#speculating = false;
    this.#windowTexts = [];
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
    this.#token += written;
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
    this.#token += piece;
    if (this.#token.length > this.#maxTokenSize) {
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
    const i = this.#suffixNoted ? -1 : text.slice(from).search(/[^\s\x85\u200b]/);
    if (i >= 0) {
      this.#repair("skipped-suffix", base + from + i, "Skipped text after the JSON value");
      this.#suffixNoted = true;
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
    // A member of the root container: the candidate root value is the root value.
    if (d === 0 && this.#speculating) this.#commit();
    if (this.#arrayAt(d)) {
      const handOut = d === this.#emitDepth - 1 && !this.#finishing;
      if (this.#keepElements || !handOut) (container as unknown[]).push(value);
      this.#mode = ARRAY_NEXT;
      if (handOut) {
        if (typeof value === "string" || (typeof value === "object" && value !== null)) this.#emit(value);
        else this.#pendingValue = value;
      }
    } else {
      setMember(container as Record<string, unknown>, this.#keys[d]!, value);
      this.#mode = OBJECT_NEXT;
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
      else if (d === 1 && !this.#arrayAt(0) && this.#unwrapKeys.includes(this.#keys[0]!)) {
        this.#emitDepth = 2;
        this.unwrappedKey = this.#keys[0];
      }
    }
    this.#stack[d] = array ? [] : {};
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

  #endString(): void {
    let text = this.#token;
    this.#token = "";
    if (text.length <= MAX_SHARED_LENGTH && !this.#tokenIsKey) {
      // Short values repeat (types, names, enum values): one copy of each is
      // shared, as JSON.parse does, instead of one per occurrence. Looking it
      // up also flattens a string grown from pieces.
      const copy = this.#shared.get(text);
      if (copy !== undefined) text = copy;
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
      this.#completeValue(`${this.#lastValue(true)}${text}`);
    } else {
      this.#completeValue(text);
    }
  }

  #numberComplete(): boolean {
    // After "0", integer, fraction or exponent digits.
    return ((0b10010110 >> this.#numberState) & 1) === 1;
  }

  /**
   * Starts a value, or with `key` an object key, at character `c`; returns false when the reader of the token started
   * reads `c` itself.
   */
  #startToken(c: number, offset: number, key: boolean): boolean {
    const strict = this.#strict;
    // Only a string may follow a `+` that joins strings (never set in strict mode, nor before a key).
    if (this.#concatenating && !isQuote(c)) return this.#fail(offset, describe(c), "a string to join");
    this.#token = "";
    this.#tokenIsKey = key;
    if (c === 34 || (!strict && isQuote(c))) {
      if (c === 39) this.#repair("single-quotes", offset, "Read a single-quoted string");
      else if (c !== 34) this.#repair("special-quotes", offset, "Read a string in typographic quotes");
      // A typographic quote is closed by the one after it (U+201C by U+201D, U+2018 by U+2019).
      this.#closeQuote = c === 0x201c || c === 0x2018 ? c + 1 : c;
      if (key) this.#keyQuoted = true;
      this.#keptQuote = -1;
      this.#rawFrom = 0;
      this.#mode = STRING;
      return true;
    }
    if (key) {
      if (!strict && (isIdentifierCode(c) || c === 45)) {
        this.#keyQuoted = false;
        this.#mode = IDENT;
        return false;
      }
      if (!strict && (c === 46 || c === 0x2026)) {
        this.#keys[this.#depth - 1] = undefined;
        this.#mode = ELLIPSIS;
        return false;
      }
      return this.#unexpected(offset, c);
    }
    if (c === 123 || c === 91) {
      this.#open(c === 91, offset);
      return true;
    }
    if (c === 45 || (c >= 48 && c <= 57) || (!strict && (c === 43 || (c === 46 && this.#depth === 0)))) {
      // The number scanner consumes this character itself.
      this.#numberState = N_START;
      this.#mode = NUMBER;
      return false;
    }
    if (strict) {
      if (c === 116 || c === 102 || c === 110) {
        this.#strictLiteral = c === 116 ? "true" : c === 102 ? "false" : "null";
        this.#mode = LITERAL;
        return false;
      }
      return this.#unexpected(offset, c);
    }
    if (isIdentifierStart(c)) {
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
      this.#mode = ELLIPSIS;
      return false;
    }
    return this.#unexpected(offset, c);
  }

  /** The heart of the parser: consumes `text`, whose first character is at `base` in the whole text. */
  #feed(text: string, base: number, from: number): void {
    const n = text.length;
    const strict = this.#strict;
    let i = from;
    while (i < n) {
      const current = this.#mode;
      if (current === AFTER_ROOT && !this.#prose && !strict && this.#openParens === 0) {
        this.restOffset ??= base + i;
        return;
      }
      if (current === STRING) {
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
          this.#token += String.fromCharCode(c);
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (current > AFTER_ROOT || current === PREAMBLE) {
        // Token modes (structural ones are VALUE through AFTER_ROOT) live in their own method.
        i = this.#feedToken(text, base, i, current, c);
        if (i < 0) return;
        continue;
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
        if ((c === 47 && this.#speculating) || ((c === 47 || c === 35) && current !== AFTER_ROOT)) {
          this.#returnMode = current;
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
      if (current !== AFTER_ROOT) {
        if (this.#readStructural(c, base + i, current)) i++;
        continue;
      }
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
      if (strict || this.#speculating) this.#unexpected(base + i, c);
      this.#noteSuffix(text, i, base);
      return;
    }
  }

  /** Reports the comma inserted at `offset`, between array elements or object members. */
  #insertComma(offset: number, array: boolean): void {
    this.#repair(
      "inserted-comma",
      offset,
      `Inserted a missing comma between ${array ? "array elements" : "object members"}`,
    );
  }

  /** Reads character `c` at `offset` in a structural mode
 before the root's end; returns whether it consumed it. */
  #readStructural(c: number, offset: number, current: number): boolean {
    const strict = this.#strict;
    if (current === COLON) {
      if (c === 58) {
        this.#mode = VALUE;
        return true;
      }
      if (strict || !this.#keyQuoted || !this.#canStartValue(c)) this.#unexpected(offset, c);
      this.#repair("inserted-colon", offset, "Inserted a missing colon after a key");
      this.#mode = VALUE;
      return false;
    }
    // The array modes are ARRAY_FIRST to ARRAY_NEXT (in VALUE mode nothing below reads `array`).
    const array = current >= ARRAY_FIRST && current <= ARRAY_NEXT;
    // A "]" (or a tuple's ")") or "}" that closes the innermost container.
    const tupleEnd = c === 41 && this.#isTuple[this.#depth - 1] === true;

    const closes = c === (array ? 93 : 125) || tupleEnd;
    const afterComma = array ? ARRAY_VALUE : OBJECT_KEY;
    if (current === ARRAY_NEXT || current === OBJECT_NEXT) {
      if (!strict && !tupleEnd) {
        // The ")" of a `Name(…)` wrapper, or the "+" of a string concatenation.
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
      }
      if (c === 44 || closes) {
        this.#flushPending();
        if (c === 44) this.#mode = afterComma;
        else this.#close();
        return true;
      }
      if (strict || !(array ? this.#canStartValue(c) : isQuote(c) || isIdentifierStart(c))) this.#unexpected(offset, c);
      this.#insertComma(offset, array);
      this.#flushPending();
      this.#mode = afterComma;
      return false;
    }
    // VALUE, or the first value or key of a container, or the one after a comma.
    if (this.#skipParen && c === 40) {
      this.#skipParen = false;
      return true;
    }
    if (current !== VALUE && closes && (current !== afterComma || !strict)) {
      if (current === afterComma) this.#repair("trailing-comma", offset, "Ignored a trailing comma");
      this.#close();
      return true;
    }
    return this.#startToken(c, offset, current === OBJECT_FIRST || current === OBJECT_KEY);
  }

  /**
   * Consumes the token (or preamble, or comment) in progress at `text[i]` (character `c`): returns
   * the index to go on from, or -1 when the chunk is used up.
   */
  #feedToken(text: string, base: number, i: number, current: number, c: number): number {
    const n = text.length;
    const strict = this.#strict;
    switch (current) {
      case ESCAPE: {
        const k = '"\\/bfnrt'.indexOf(text[i]!);
        if (k >= 0) {
          this.#token += '"\\/\b\f\n\r\t'[k];
          this.#mode = STRING;
        } else if (c === 117) {
          this.#hexDigits = "";
          this.#mode = UNICODE;
        } else if (strict) {
          this.#fail(base + i, describe(c), "an escape character");
        } else {
          this.#keepEscape(String.fromCharCode(c), base + i);
        }
        this.#rawFrom = this.#token.length;
        return i + 1;
      }
      case UNICODE: {
        const digits = this.#hexDigits;
        if (!/[\da-f]/i.test(text[i]!)) {
          if (strict) this.#fail(base + i, describe(c), "a hexadecimal digit");
          // "u" and the digits so far (their letters in lower case); the character is ordinary string content.
          this.#keepEscape(`u${digits.toLowerCase()}`, base + i - digits.length - 1);
          return i;
        }
        this.#hexDigits += text[i];
        if (digits.length === 3) {
          this.#token += String.fromCharCode(Number.parseInt(this.#hexDigits, 16));

          this.#rawFrom = this.#token.length;
          this.#mode = STRING;
        }
        return i + 1;
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
        if (
          !strict &&
          (/\d/.test(this.#token)
            ? isNumberWordCode(d) || state === N_E || state === N_E_SIGN
            : this.#token === "-" && d === 73)
        ) {
          // `007`, `1.2.3`, `0x1F`, `2024-01-01`, `-Infinity`, and `2e` before a delimiter (no number
          // cut short by the end): a word that starts like a number.
          this.#unquotedAt = base + j - this.#token.length;
          this.#mode = NUMBER_WORD;
          return j;
        }
        // A sign or a dot without a digit is no number.
        if (!this.#numberComplete() && (strict || !/\d/.test(this.#token)))
          this.#fail(base + j, describe(d), "a digit");
        this.#endNumber(base + j);
        return j;
      }
      case LITERAL: {
        const literal = this.#strictLiteral;
        let k = this.#token.length;
        while (i < n && k < literal.length) {
          const d = text.charCodeAt(i);
          if (d !== literal.charCodeAt(k)) this.#fail(base + i, describe(d), JSON.stringify(literal));

          i++;
          k++;
        }
        if (k === literal.length) {
          this.#token = "";
          this.#completeValue(LITERALS.get(literal)![0]);
        } else {
          this.#token = literal.slice(0, k);
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
        this.#endUnquoted("number-as-string");
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
        this.#endUnquoted("unquoted-string");
        return j;
      }
      case ELLIPSIS: {
        const d = this.#depth - 1;
        if (this.#token === "." && c >= 48 && c <= 57 && (this.#arrayAt(d) || this.#keys[d] !== undefined)) {
          // `.5`: a number after all; the number scanner reads on from its dot.
          this.#repair("loose-number", base + i - 1, LOOSE_NUMBER);
          this.#numberState = N_DOT;
          this.#mode = NUMBER;
          return i;
        }
        if (c === 46 || c === 0x2026) {
          this.#token += String.fromCharCode(c);
          return i + 1;
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
          this.#keptQuote = this.#token.length;
          this.#keptQuoteAt = this.#quoteAt;
          this.#token += String.fromCharCode(this.#closeQuote) + this.#lineEnd;
          this.#mode = STRING;
          return i;
        }
        const kept = this.#keptQuote;
        const before = kept < 0 ? "" : this.#token.slice(0, kept);
        const array = this.#arrayAt(this.#depth - 1);
        if (
          kept >= 0 &&
          !this.#concatenating &&
          (array ? (c === 44 || c === 93 || c === 10 || c === 13) && /[,\n\r]\s*$/.test(before) : c === 58)
        ) {
          // `"abc, "b": 2`, `["abc, "d"]`, `["abc⏎"d"]`: the kept quote opened the next key or element,
          // and the string before it lacks its closing quote.
          const after = this.#token.slice(kept + 1);
          const trimmed = before.trimEnd();
          this.#repair("closed-quote", this.#keptQuoteAt, "Closed a string whose closing quote is missing");
          if (!trimmed.endsWith(",")) this.#insertComma(this.#keptQuoteAt, array);
          this.#token = trimmed.replace(/,$/, "").trimEnd();
          this.#endString();
          if (array) {
            this.#token = after;
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
          return i + 1;
        }
        if (c === 125 || c === 93 || c === 44) {
          this.#closeAtLineEnd(base + i);
          return i;
        }
        // Anything else goes on in the string, after the line end; a quote may end it, or start the next key or element.
        this.#repair("control-character", base + i, "Kept a raw control character inside a string");
        this.#token += this.#lineEnd;
        this.#lineEnd = "";
        this.#mode = STRING;
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
        this.#windowTexts = [text];
        this.#windowStart = base;
        this.#windowEnd = base + text.length;

        this.#sawContent = true;
        this.#mode = VALUE;
        return this.#startToken(d, base + j, false) ? j + 1 : j;
      }
      case COMMENT_START: {
        if (c === 47) this.#mode = LINE_COMMENT;
        else if (c === 42) this.#mode = BLOCK_COMMENT;
        else {
          this.#mode = this.#returnMode;
          this.#fail(base + i - 1, describe(47), EXPECTED[this.#returnMode]!);
        }
        this.#repair("comment", base + i - 1, "Skipped a comment");
        return i + 1;
      }
      case LINE_COMMENT: {
        let j = i;
        while (j < n && text.charCodeAt(j) !== 10 && text.charCodeAt(j) !== 13) j++;
        if (j < n) this.#mode = this.#returnMode;
        return j;
      }
      case BLOCK_COMMENT: {
        const j = text.indexOf("*", i);
        if (j < 0) return -1;
        this.#mode = BLOCK_COMMENT_STAR;
        return j + 1;
      }
      case BLOCK_COMMENT_STAR: {
        if (c === 47) this.#mode = this.#returnMode;
        else if (c !== 42) this.#mode = BLOCK_COMMENT;
        return i + 1;
      }
      default:
        // DONE: the rest of the text is not read.
        return -1;
    }
  }

  /** Whether the open container at index `d` of the stack is an array (false below the root). */
  #arrayAt(d: number): boolean {
    return Array.isArray(this.#stack[d]);
  }

  /** The value last read in the innermost container; `take` removes it from an array. */
  #lastValue(take: boolean): unknown {
    const d = this.#depth - 1;
    const container = this.#stack[d];
    if (!this.#arrayAt(d)) return (container as Record<string, unknown>)[this.#keys[d]!];
    return take ? (container as unknown[]).pop() : (container as unknown[]).at(-1);
  }

  /** A `...` placeholder ended at `offset`: it stands for nothing. */
  #endPlaceholder(offset: number): void {
    const dots = this.#token;
    this.#token = "";
    const d = this.#depth - 1;
    if (dots !== "…" && dots.length < 2) {
      this.#mode = this.#arrayAt(d) ? ARRAY_VALUE : VALUE;
      this.#fail(offset - dots.length, describe(46), "a value");
    }
    this.#repair("placeholder", offset - dots.length, `Dropped a ${JSON.stringify(dots)} placeholder`);
    this.#dropValue(offset, "whose value is a placeholder");
  }

  /**
   * A bare value ended: a word that starts like a number (`kind` "number-as-string": `-Infinity` reads as null, any
   * other as its characters), or an unquoted string value (its text up to a ` //` or ` /*` comment, trimmed).
   */
  #endUnquoted(kind: "number-as-string" | "unquoted-string"): void {
    const at = this.#unquotedAt;
    const comment = this.#token.search(/\s\/[/*]/);
    let value = (comment < 0 ? this.#token : this.#token.slice(0, comment)).trim();
    this.#token = "";
    const literal = LITERALS.get(value);
    if (literal !== undefined) {
      this.#completeLiteral(value, literal, at);
      return;
    }
    if (value.endsWith('"') && !value.slice(0, -1).includes('"')) {
      value = value.slice(0, -1);
      this.#repair("opened-quote", at, "Read a string whose opening quote is missing");
    } else {
      this.#repair(kind, at, `Read the unquoted value ${JSON.stringify(value.slice(0, 40))} as a string`);
    }
    if (comment >= 0) this.#repair("comment", at + comment + 1, "Skipped a comment");
    this.#completeValue(value);
  }

  /** The string ends at the line end after all (its closing quote is missing); a comma just before it is a separator. */
  #closeAtLineEnd(offset: number): void {
    const end = offset - this.#lineEnd.length;
    this.#lineEnd = "";
    if (this.#closeBeforeBrackets(end)) return;
    if (this.#token.endsWith(",")) this.#token = this.#token.slice(0, -1);
    this.#repair("closed-quote", offset, "Closed a string whose closing quote is missing at the line end");
    this.#endString();
  }

  /**
   * A string whose closing quote is missing, written up to `end`: when it ends with "}" and "]" (with blanks and
   * commas) that close the containers around it, its quote belonged before them. Closes it there and them after it.
   */
  #closeBeforeBrackets(end: number): boolean {
    const text = this.#token;
    let start = text.length;
    while (start > this.#rawFrom && " \t\n\r,]}".includes(text[start - 1]!)) start--;
    let n = 0;
    for (let k = start; k < text.length; k++) {
      const c = text.charCodeAt(k);
      const d = this.#depth - 1 - n;
      if (c === 93 || c === 125) {
        if (d < 0 || c !== (this.#arrayAt(d) ? 93 : 125)) return false;
        n++;
      }
    }
    if (n === 0) return false;
    this.#repair("closed-quote", end - text.length + start, "Closed a string whose closing quote is missing");
    this.#token = text.slice(0, start);
    this.#endString();
    while (n-- > 0) this.#close();
    return true;
  }

  #canStartValue(c: number): boolean {
    return isQuote(c) || c === 123 || c === 91 || c === 45 || (c >= 48 && c <= 57) || isIdentifierStart(c);
  }

  /**
   * A bare word (lenient) ended at `offset`, before character `next`: an unquoted key, a literal, a wrapper or an
   * unquoted string. Returns 1 when it read `next` too: the closing quote of a string whose opening quote is missing.
   */
  #endIdentifier(offset: number, next: number): number {
    const word = this.#token;
    const at = offset - word.length;
    const d = this.#depth - 1;
    const literal = LITERALS.get(word);
    // `{a": 1}`, `["x", y"]`: a quote right after the word closes it (an object's value reads on, unquoted).
    const quoted = next === 34 && (this.#tokenIsKey || this.#arrayAt(d)) && !this.#concatenating;
    this.#token = "";
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
      this.#mode = this.#arrayAt(d) ? ARRAY_VALUE : VALUE;
    } else if (d >= 0 && !this.#arrayAt(d) && !this.#concatenating) {
      // An unquoted string value: read on to the end of the member.
      this.#token = word;
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

  /** A number ended at `offset`: its value, or (lenient) an incomplete one read without its trailing ".", "e" or sign. */
  #endNumber(offset: number): void {
    const text = this.#token;
    this.#token = "";
    if (this.#numberComplete()) {
      this.#completeValue(Number(text));
      return;
    }
    const digits = text.replace(/\D+$/, "");
    if (digits === "") {
      this.#repair("dropped-value", offset, `Dropped an incomplete number ${JSON.stringify(text)}`);
      this.#dropValue(offset);
    } else {
      this.#repair("truncated-number", offset, `Read the incomplete number ${JSON.stringify(text)} as ${digits}`);
      this.#completeValue(Number(digits));
    }
  }

  /** No value after all where one was expected: drop its key (saying `why`), or leave the array as it is. */
  #dropValue(offset: number, why = "which has no value"): void {
    if (this.#depth === 0) return;
    const d = this.#depth - 1;
    if (this.#arrayAt(d)) {
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
    let current = this.#mode;
    if (current >= COMMENT_START && current <= BLOCK_COMMENT_STAR) {
      current = this.#returnMode;
      this.#mode = current;
    }
    // A token that ends where the next character decides: ended by the end.
    if (current === STRING_EOL) this.#closeAtLineEnd(offset);
    else if (current === UNQUOTED) this.#endUnquoted("unquoted-string");
    else if (current === STRING_QUOTE) this.#endString();
    else if (current === NUMBER_WORD) this.#endUnquoted("number-as-string");
    else if (current === ELLIPSIS) {
      if (this.#token.length >= 2 || this.#token === "…") this.#endPlaceholder(offset);
      else this.#dropValue(offset);
    }
    current = this.#mode;
    const inString = current >= STRING && current <= UNICODE;
    if (this.#tokenIsKey && (inString || current === IDENT)) {
      this.#repair("dropped-key", offset, `Dropped the unfinished key ${JSON.stringify(this.#token)}`);
      this.#mode = OBJECT_NEXT;
    } else if (inString) {
      if (current !== STRING || !this.#closeBeforeBrackets(offset)) {
        this.#repair("closed-string", offset, "Closed an unfinished string");
        this.#endString();
      }
    } else if (current === NUMBER) {
      this.#endNumber(offset);
    } else if (current === IDENT) {
      // A literal cut short (`tr`, `Fals`) is completed; another word is dropped.
      const word = this.#token;
      const name = [...LITERALS.keys()].find((key) => word !== "" && key.startsWith(word));
      if (name === undefined) {
        this.#repair("dropped-value", offset, `Dropped the unfinished word ${JSON.stringify(word)}`);
        this.#dropValue(offset);
      } else {
        if (name !== word) this.#repair("completed-literal", offset, `Completed ${JSON.stringify(word)} to ${name}`);
        this.#completeValue(LITERALS.get(name)![0]);
      }
    } else if (current === COLON || current === VALUE) this.#dropValue(offset);
    while (this.#depth > 0) {
      const array = this.#arrayAt(this.#depth - 1);
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
