/**
 * Reading tool calls from a model's raw text, in whatever common format it
 * writes them, as the text streams in.
 *
 * Invariants (each has a test in `test/plan/create-tool-call-reader.test.ts`):
 *
 * 1. **Chunking never matters.** Every split of the same text gives the same
 *    steps in the same order.
 * 2. **On time.** A call is handed out by the `write()` that closes it (a
 *    JSON object at its closing brace; a pythonic call at the separator,
 *    line end or bracket after its closing parenthesis).
 * 3. **Never wider.** Prose that mentions a function is not a call: a
 *    pythonic call counts only in a call position (the start of the answer,
 *    right after a tool-call tag or marker, at the start of a code fence, or
 *    after a call that counted) and only when what follows it on its line is
 *    a separator, a closing tag or fence, the end, or (in a code fence) a `#`
 *    comment. A JSON call the parser had to stop inside, losing part of it,
 *    is dropped with a message, not handed out.
 * 4. **Linear.** Each character is read a bounded number of times.
 *
 * @module
 */
import {
  createJsonStreamParser,
  type JsonStreamParser,
  type PartialString,
} from "../json/create-json-stream-parser.ts";
import { isBlank, isIdentifierPart, isIdentifierStart, isNewline } from "../shared/char-codes.ts";
import { isRecord } from "../shared/is-record.ts";
import {
  ARGUMENTS_MARKER,
  CALL_TAGS,
  END_TAGS,
  MAX_NAME_LENGTH,
  QUOTED_CALL_PATTERN,
  SEPARATOR_TAG,
  STEP_LIST_KEYS,
  TOOL_NAME_PATTERN,
  TOOLS_MARKER,
} from "./call-formats.ts";
import { readLimitFailure } from "./read-limit-failure.ts";
import {
  newPythonRead,
  type PythonicCallHost,
  type PythonRead,
  pythonicCallArguments,
  pythonTextFrom,
  skipSpaces,
} from "./read-pythonic-call.ts";
import { toCallStep } from "./to-call-step.ts";

/** Something that was cut off by the end of the text before it closed. */
export interface CutOffCall {
  /** Offset in the whole text where it began. */
  offset: number;
  /** What it was, for a message: `its JSON`, `the call "get_weather(…"`. */
  what: string;
}

/** A call that was read but could not become a step. */
export interface DroppedCall {
  /** Offset in the whole text where it began. */
  offset: number;
  /** Why, naming the call: `The call "get_weather(…)" passes argument 1 by position, …`. */
  message: string;
}

/** Options of {@link createToolCallReader}. */
export interface ToolCallReaderOptions {
  /**
   * The parameter names of a tool, in the order of its input schema's
   * `properties`, so that a pythonic call's positional arguments
   * (`get_weather("Paris", 3)`) can be named. Called with the name as the
   * model wrote it; `undefined` or an empty list when the tool is unknown.
   * Without it, a call with positional arguments is dropped with a message.
   * @defaultValue undefined
   */
  parameterNames?: (tool: string) => readonly string[] | undefined;
}

/** What {@link ToolCallReader.end} returns. */
export interface ToolCallReadResult {
  /** Steps the end of the text completed (the others were handed out by `write()`). */
  steps: unknown[];
  /** Calls the end of the text cut off, in order: they are not steps. */
  cutOff: CutOffCall[];
  /** Calls that were read but could not become steps (positional arguments without names), in order. */
  dropped: DroppedCall[];
  /** JSON values found that are neither steps nor lists of them (a sketch, a lone value), in order. */
  values: unknown[];
  /** Whether the text held anything readable: a step, a cut-off call or a JSON value. */
  found: boolean;
}

/** A push reader created by {@link createToolCallReader}. */
export interface ToolCallReader {
  /**
   * Feeds the next piece of the model's text.
   *
   * @param chunk - the next characters, of any length.
   * @returns the raw steps this chunk completed, in order, for `normalizeStep`.
   */
  write(chunk: string): unknown[];
  /**
   * Ends the text.
   *
   * @returns the steps only the end completed, the cut-off calls and the other values.
   */
  end(): ToolCallReadResult;
  /**
   * The string being written inside the open step of a JSON list of steps
   * (see {@link JsonStreamParser.partialString}), as the model writes it:
   * `{ members: { id: "s4", type: "reply" }, key: "text", text: "It is " }`.
   * `undefined` anywhere else, and before the list is known to hold steps
   * (its first element closed as an object).
   *
   * @returns the string in progress, or `undefined`.
   */
  partialString(): PartialString | undefined;
}

/** The longest tag looked for, so that a lone `<` in prose is decided quickly. */
const maxTagLength = 64;

/** A JSON value being read. */
interface JsonRead {
  parser: JsonStreamParser;
  /** Offset of its first character in the whole text. */
  base: number;
  /** For a root array: whether its elements are steps (decided by the first one). */
  plan?: boolean;
  streamed: number;
  /** The tool name written before it. */
  name: string | undefined;
  /** The name came from a marker (`<function=name>`, `[ARGS]`, `<｜tool▁sep｜>`): an object is its arguments, whatever its keys. */
  named: boolean;
}

/** Characters of a tool name as models write them: identifier characters, `.` and `-`. */
function isNamePart(c: number): boolean {
  return isIdentifierPart(c) || c === 46 || c === 45;
}

/** `|`, or DeepSeek's full-width `｜`, around a special token. */
function isBar(c: number): boolean {
  return c === 124 || c === 0xff5c;
}

/**
 * The name of a tag from what is between its `<` and `>`: bars (`|` or
 * `｜`) and a closing `/` taken off, lower case, DeepSeek's `▁` read as `_`
 * (`<｜tool▁sep｜>` → `tool_sep`, as its ASCII look-alike `<|tool_sep|>`).
 *
 * @returns the name; the same as written, only trimmed; and whether the tag is a closing one.
 */
function tagName(inside: string): { name: string; written: string; closing: boolean } {
  let inner = inside.trim();
  if (inner.length > 1 && isBar(inner.charCodeAt(0)) && isBar(inner.charCodeAt(inner.length - 1)))
    inner = inner.slice(1, -1);
  const closing = inner.startsWith("/");
  if (closing) inner = inner.slice(1);
  const written = inner.trim();
  return { name: written.toLowerCase().replaceAll("\u2581", "_"), written, closing };
}

/** The tool name a raw step calls, for a message: under a key of `TOOL_NAME_KEYS` or OpenAI's `function` (spelt out: smaller). */
function callNameOf(step: unknown): string | undefined {
  if (!isRecord(step)) return undefined;
  for (const key of ["name", "tool", "tool_name", "function"]) {
    const value = step[key];
    if (typeof value === "string") return value;
    if (isRecord(value) && typeof value["name"] === "string") return value["name"];
  }
  return undefined;
}

/**
 * The reader. The members that are not `#private` (`pos`, `ended`, `inFence`,
 * `total`, `code`, `slice`, `callAhead`, `feedFrom`, `emitPython`,
 * `leavePython`) are its {@link PythonicCallHost} side, for the phases of a `PythonRead`.
 */
class Reader implements ToolCallReader, PythonicCallHost {
  /**
   * The text not yet consumed, from `bufferBase` on. Prose is dropped as it
   * is read, up to the start of a value being read; while a value is read,
   * chunks go to its parser and are only appended here (never indexed, so
   * never flattened) until it completes.
   */
  #buffer = "";
  #bufferBase = 0;
  pos = 0;
  ended = false;
  /** A pythonic call may start here: the answer's start, after a call tag, in a fence. */
  #callPosition = true;
  inFence = false;
  /** Calls of catalog tools in the open fence. */
  #fenceCalls = 0;
  /** A fenced block of catalog calls closed: calls of other functions after it are not read. */
  #answered = false;
  /** Inside a `#` comment of a code fence, up to the line end. */
  #inComment = false;
  /**
   * A tool name a marker gave for the next JSON object, which is then its
   * arguments: from `<function=name>`, `name[ARGS]` or `<｜tool▁sep｜>`.
   */
  #pendingName: string | undefined;
  /** Where the marker that gave `pendingName` began. */
  #pendingAt = 0;
  /** After `function<｜tool▁sep｜>`: the word read next is the tool name. */
  #nameFollows = false;
  /** The run of tool-name characters just before `pos` ("" when none, undefined when too long). */
  #word: string | undefined = "";
  /** Whether the line so far is blank or that one word. */
  #lineIsWord = true;
  /** Blanks followed the word. */
  #afterWord = false;
  /** The previous line, when it held only a tool name, while the current line is blank. */
  #nameLine: string | undefined;
  /** The last character noted was a `\r`: a `\n` right after it ends the same line. */
  #afterReturn = false;
  #json: JsonRead | undefined;
  #python: PythonRead | undefined;
  #out: unknown[] = [];
  readonly #cutOff: CutOffCall[] = [];
  readonly #dropped: DroppedCall[] = [];
  /** A value broke a parser limit, and no value was read since: its inner values break it too, one report is enough. */
  #overLimit = false;

  readonly #options: ToolCallReaderOptions;

  constructor(options: ToolCallReaderOptions) {
    this.#options = options;
  }

  readonly #values: unknown[] = [];
  #found = false;
  /** A decision at `waitingAt` waits for more text; what was read for it ends at `waitedTo`. */
  #waitingAt = -1;
  #waitedTo = 0;

  write(chunk: string): unknown[] {
    if (this.ended) throw new TypeError("ToolCallReader.write() was called after end()");
    this.#out = [];
    this.#buffer += chunk;
    if (this.#json !== undefined) this.#takeElements(this.#json, this.#json.parser.write(chunk));
    else if (this.#python?.value !== undefined) this.#python.value.write(chunk);
    this.#scan();
    return this.#out;
  }

  end(): ToolCallReadResult {
    if (this.ended) throw new TypeError("ToolCallReader.end() was called twice");
    this.ended = true;
    this.#out = [];
    this.#scan();
    if (this.#json !== undefined) this.#endJson(this.#json);
    if (this.#python !== undefined) this.#endPython(this.#python);
    if (this.#nameFollows) this.#takeFollowingName();
    // A marker named a tool, and the text ended before its arguments began.
    if (this.#pendingName !== undefined) this.#cut(this.#pendingAt, `the call "${this.#pendingName}"`);
    return {
      steps: this.#out,
      cutOff: this.#cutOff,
      dropped: this.#dropped,
      values: this.#values,
      // Every step taken was found (`#emit`).
      found: this.#found,
    };
  }

  partialString(): PartialString | undefined {
    const read = this.#json;
    return read?.plan === true && !this.ended ? read.parser.partialString() : undefined;
  }

  /** Notes how far a decision at `at` read before it ran out of text, so that it goes on from there. */
  #wait(at: number, reached: number): false {
    this.#waitingAt = at;
    this.#waitedTo = reached;
    return false;
  }

  /** A call the end of the text cut off. */
  #cut(offset: number, what: string): void {
    this.#found = true;
    this.#cutOff.push({ offset, what });
  }

  /** A call that cannot become a step. */
  #drop(offset: number, message: string): void {
    this.#found = true;
    this.#dropped.push({ offset, message });
  }

  /** Goes on reading prose at `to`, where a call may stand (`callPosition`) or not. */
  #goOn(to: number, callPosition = false): true {
    this.#callPosition = callPosition;
    this.pos = to;
    return true;
  }

  /**
   * Whether `text` is written at `at`.
   *
   * @returns undefined while the text so far is only a beginning of it.
   */
  #isAt(at: number, text: string): boolean | undefined {
    const written = this.slice(at, at + text.length);
    if (written === text) return true;
    return !this.ended && text.startsWith(written) ? undefined : false;
  }

  /** The character at `at` and where it is, for a message: `"~" at offset 9`. */
  #charAt(at: number): string {
    return `${JSON.stringify(this.slice(at, at + 1))} at offset ${at}`;
  }

  /** The word just before `pos`, when it is a tool name. */
  #wordName(): string | undefined {
    const word = this.#word;
    return word !== undefined && TOOL_NAME_PATTERN.test(word) ? word : undefined;
  }

  get total(): number {
    return this.#bufferBase + this.#buffer.length;
  }

  /** The character code at absolute offset `at` (NaN past the text). */
  code(at: number): number {
    return this.#buffer.charCodeAt(at - this.#bufferBase);
  }

  slice(from: number, to: number): string {
    return this.#buffer.slice(from - this.#bufferBase, to - this.#bufferBase);
  }

  #emit(step: unknown, inBlock = true): void {
    // After the answer's block, calls of other functions are the model's examples and tests, not calls.
    if (this.#answered && this.#isForeignCall(step)) return;
    this.#found = true;
    if (inBlock && this.inFence && isRecord(step) && !this.#isForeignCall(step)) this.#fenceCalls++;
    this.#out.push(step);
  }

  /** Whether a step calls a function the catalog does not have (never, without a catalog). */
  #isForeignCall(step: unknown): boolean {
    const names = this.#options.parameterNames;
    if (names === undefined || !isRecord(step)) return false;
    const name = step["name"] ?? step["tool"];
    return typeof name === "string" && names(name) === undefined;
  }

  /** A fence closed: a block that called catalog tools was the answer. */
  #closeFence(): void {
    this.inFence = false;
    if (this.#fenceCalls > 0) this.#answered = true;
    this.#fenceCalls = 0;
  }

  /** Reads as far as the text allows (to the end once `end()` was called), then drops what was read. */
  #scan(): void {
    // Each step reads on in the open value, the open call list or the prose, until one needs more text.
    while (
      this.#json !== undefined
        ? this.#json.parser.status !== "reading" && this.#finishJson(this.#json)
        : this.#python !== undefined
          ? this.#python.phase(this, this.#python)
          : this.pos < this.total && this.#stepProse()
    );
    // A word read as a keyword may turn out to be a positional value: keep it until that is known.
    const python = this.#python;
    let keep = python === undefined ? this.pos : pythonTextFrom(python, this.pos);
    // An open value keeps the text from its start (a rejected one is read on from there). Dropping what came
    // before it once, when it starts, keeps the buffer short when a new candidate is open at every chunk's end
    // (`[{[{…`): kept whole, the buffer was copied again on each chunk, quadratic in the text.
    if (this.#json !== undefined) keep = Math.min(keep, this.#json.base);
    if (python?.value === undefined && keep > this.#bufferBase) {
      this.#buffer = this.#buffer.slice(keep - this.#bufferBase);
      this.#bufferBase = keep;
    }
  }

  /** Notes a character of prose for the tool-name-line rule. */
  #notePlain(c: number): void {
    const lineFeedOfCrLf = c === 10 && this.#afterReturn;
    this.#afterReturn = c === 13;
    if (lineFeedOfCrLf) return;
    if (isNewline(c)) {
      this.#nameLine = this.#lineIsWord ? this.#wordName() : undefined;
      this.#word = "";
      this.#lineIsWord = true;
      this.#afterWord = false;
      return;
    }
    if (isBlank(c)) {
      if (this.#word !== "") this.#afterWord = true;
      return;
    }
    this.#nameLine = undefined;
    if (isNamePart(c)) {
      // A second word on the line: it holds no lone tool name.
      if (this.#afterWord) this.#lineIsWord = false;
      this.#afterWord = false;
      if (this.#word !== undefined)
        this.#word = this.#word.length < MAX_NAME_LENGTH ? this.#word + String.fromCharCode(c) : undefined;
      return;
    }
    this.#breakWord();
  }

  /** Something other than plain prose was read: no tool name stands before what follows. */
  #breakWord(): void {
    this.#afterReturn = false;
    this.#word = "";
    this.#afterWord = false;
    this.#lineIsWord = false;
    this.#nameLine = undefined;
  }

  /**
   * Reads prose at `pos`: a tag, a fence, a JSON value or a pythonic call in a call position.
   *
   * @returns false when more text is needed to decide.
   */
  #stepProse(): boolean {
    const at = this.pos;
    const c = this.code(at);
    if (this.#nameFollows && !isNamePart(c) && (this.#word !== "" || !(isBlank(c) || isNewline(c))))
      this.#takeFollowingName();
    if (this.#inComment) {
      // A comment line keeps the call position of the fence it is in.
      if (isNewline(c)) this.#inComment = false;
      this.pos++;
      return true;
    }
    if (c === 35 && this.inFence && this.#callPosition) {
      this.#inComment = true;
      this.#breakWord();
      this.pos++;
      return true;
    }
    if (isBlank(c) || isNewline(c)) {
      this.#notePlain(c);
      this.pos++;
      return true;
    }
    if (c === 60) return this.#readTag();
    if (c === 96) return this.#readFence();
    if (c === 91) {
      const marker = this.#readMarker(at);
      if (marker === undefined) return false;
      if (marker) return true;
      if (this.#callPosition) {
        const j = skipSpaces(this, at + 1, true);
        const call = this.callAhead(j);
        if (call === undefined) return false;
        if (call) {
          this.#breakWord();
          this.#python = newPythonRead(true, j);
          this.pos = j;
          return true;
        }
      }
      this.#startJson(at, undefined);
      return true;
    }
    if (c === 123) {
      if (this.#pendingName !== undefined) this.#startJson(at, this.#pendingName, true);
      else this.#startJson(at, this.#lineIsWord && this.#word === "" ? this.#nameLine : undefined);
      return true;
    }
    if (c === 34 && this.#callPosition) {
      // A quoted value where a call may stand: an answer JSON-encoded in a string, or a call quoted whole.
      this.#startJson(at, undefined);
      return true;
    }
    if (c === 39 && this.#callPosition) {
      // A Python string where a call may stand, when a call opens it (`'math.gcd(num1=12)'`); an apostrophe opens prose.
      const call = this.callAhead(at + 1);
      if (call === undefined) return false;
      if (call) {
        this.#startJson(at, undefined);
        return true;
      }
    }
    if (this.#callPosition && isIdentifierStart(c)) {
      const call = this.callAhead(at);
      if (call === undefined) return false;
      if (call) {
        this.#breakWord();
        this.#python = newPythonRead(false, at);
        return true;
      }
    }
    this.#pendingName = undefined;
    this.#notePlain(c);
    return this.#goOn(at + 1);
  }

  /**
   * Reads `[TOOL_CALLS]` or `[ARGS]` at `at`.
   *
   * @returns true when read, false when not there, undefined when more text is needed.
   */
  #readMarker(at: number): boolean | undefined {
    for (const marker of [TOOLS_MARKER, ARGUMENTS_MARKER]) {
      const here = this.#isAt(at, marker);
      if (here === undefined) return undefined;
      if (!here) continue;
      if (marker === TOOLS_MARKER) this.#callPosition = true;
      else {
        this.#pendingName = this.#wordName();
        this.#pendingAt = at;
      }
      this.#breakWord();
      this.pos = at + marker.length;
      return true;
    }
    return false;
  }

  /**
   * Whether a pythonic call (`name(` or `dotted.name(`) starts at `at`.
   *
   * @returns undefined when more text is needed.
   */
  callAhead(at: number): boolean | undefined {
    if (at >= this.total) return this.ended ? false : undefined;
    if (!isIdentifierStart(this.code(at))) return false;
    let j = this.#waitingAt === at ? this.#waitedTo : at + 1;
    while (j < this.total && j - at <= MAX_NAME_LENGTH && (isIdentifierPart(this.code(j)) || this.code(j) === 46)) j++;
    if (j - at > MAX_NAME_LENGTH) return false;
    if (j === this.total) {
      if (this.ended) return false;
      this.#wait(at, j);
      return undefined;
    }
    return this.code(j) === 40 && this.code(j - 1) !== 46;
  }

  /** Reads a tag at `pos` (`<tool_call>`, `</tool_call>`, `<|python_tag|>`, `<function=name>`). */
  #readTag(): boolean {
    const at = this.pos;
    // Waiting for the rest of a tag, the search goes on where it stopped.
    let close = this.#waitingAt === at ? this.#waitedTo : at + 1;
    while (close < this.total && close - at <= maxTagLength && this.code(close) !== 62 && this.code(close) !== 60)
      close++;
    if (close === this.total && !this.ended && close - at <= maxTagLength) return this.#wait(at, close);
    if (this.code(close) !== 62) {
      this.#breakWord();
      return this.#goOn(at + 1);
    }
    const { name, written, closing } = tagName(this.slice(at + 1, close));
    if (!closing && name === SEPARATOR_TAG) return this.#readSeparator(at, close);
    this.#breakWord();
    if (!closing && name.startsWith("function=")) {
      const tool = written.slice("function=".length).trim();
      if (TOOL_NAME_PATTERN.test(tool)) {
        this.#pendingName = tool;
        this.#pendingAt = at;
        return this.#goOn(close + 1);
      }
    }
    if (CALL_TAGS.has(name)) return this.#goOn(close + 1, !closing);
    if (END_TAGS.has(name) && (closing || name !== "function")) {
      this.#pendingName = undefined;
      return this.#goOn(close + 1);
    }
    return this.#goOn(at + 1);
  }

  /**
   * Reads DeepSeek's `<｜tool▁sep｜>` (from `at` to `close`), which names the
   * call its JSON arguments belong to: the word before it
   * (`get_weather<｜tool▁sep｜>{…}`), or, when that word is `function`, the
   * name that follows it (`function<｜tool▁sep｜>get_weather`, then the
   * arguments in a fence), if one does.
   */
  #readSeparator(at: number, close: number): true {
    const word = this.#wordName();
    this.#breakWord();
    this.#pendingName = word;
    this.#pendingAt = at;
    this.#nameFollows = word === "function";
    return this.#goOn(close + 1);
  }

  /** The word after `function<｜tool▁sep｜>` ended: it is the tool name, when there is one. */
  #takeFollowingName(): void {
    this.#nameFollows = false;
    // No word: the tool is called `function`, and pendingName says so still.
    if (this.#word === "") return;
    this.#pendingName = this.#wordName();
  }

  /** Reads a code fence at `pos`: an opening one (with its language) starts a call position. */
  #readFence(): boolean {
    const at = this.pos;
    const fence = this.#isAt(at, "```");
    if (fence === undefined) return false;
    this.#breakWord();
    if (!fence) return this.#goOn(at + 1);
    let j = at + 3;
    if (this.inFence) {
      this.#closeFence();
      return this.#goOn(j);
    }
    while (j < this.total && j - at < MAX_NAME_LENGTH && (isNamePart(this.code(j)) || this.code(j) === 43)) j++;
    if (j === this.total && !this.ended) return false;
    this.inFence = true;
    return this.#goOn(j, true);
  }

  // JSON values ---------------------------------------------------------------

  #startJson(at: number, name: string | undefined, named = false): void {
    // A named call's arguments are never a wrapper of steps.
    const parser = createJsonStreamParser(named ? { prose: false } : { prose: false, unwrapKeys: STEP_LIST_KEYS });
    const read: JsonRead = { parser, base: at, streamed: 0, name, named };
    this.#json = read;
    this.#pendingName = undefined;
    this.#breakWord();
    this.feedFrom(parser, at, (elements) => this.#takeElements(read, elements));
  }

  /**
   * Feeds the buffered text from `at` to a value's parser in pieces of
   * doubling size, stopping once the value is complete: the text after it,
   * possibly long, is not copied for it.
   */
  feedFrom(parser: JsonStreamParser, at: number, take?: (elements: unknown[]) => void): void {
    let size = 16;
    for (let from = at; from < this.total && parser.status === "reading"; from += size, size *= 2) {
      const elements = parser.write(this.slice(from, Math.min(this.total, from + size)));
      take?.(elements);
    }
  }

  /** Elements of a root array (or of a wrapped list) closed: the first says whether they are steps. */
  #takeElements(read: JsonRead, elements: unknown[]): void {
    for (const element of elements) {
      read.plan ??= read.parser.unwrappedKey !== undefined || isRecord(element);
      if (!read.plan) return;
      read.streamed++;
      this.#emit(toCallStep(element) ?? element);
    }
  }

  /**
   * The value is complete or was rejected: take it, and go on after it.
   *
   * @returns false when more text is needed to know whether a stop lost part of the value.
   */
  #finishJson(read: JsonRead): boolean {
    const parser = read.parser;
    let broken: string | undefined;
    if (parser.status === "done") {
      broken = this.#brokenAt(read);
      if (broken === "") return false;
    }
    this.#json = undefined;
    this.#callPosition = false;
    if (parser.status === "rejected") {
      this.pos = read.base + (parser.restOffset ?? 1);
      const limit = readLimitFailure(parser, read.base);
      if (limit !== undefined) {
        this.#found = true;
        const message = `A value is beyond the reader's limits (${limit}); what it held was dropped`;
        if (!this.#overLimit) this.#drop(read.base, message);
        this.#overLimit = true;
      }
      // A marker named the call: its arguments are unreadable from the first member on.
      else if (read.named) this.#dropBroken(read, { name: read.name }, this.#charAt(this.pos));
      return true;
    }
    this.pos = read.base + (parser.restOffset ?? this.total - read.base);
    this.#overLimit = false;
    const root = parser.end();
    this.#found = true;
    if (!this.#readQuoted(read, root, broken))
      this.#takeRoot(read, root, (step, inBlock) =>
        broken === undefined ? this.#emit(step, inBlock) : this.#dropBroken(read, step, broken),
      );
    return true;
  }

  /**
   * Whether the lenient parser stopped inside the value at a character that
   * is no closing tag or fence (`{"a": ~5}`, `{"a": 1 @ "b": 2}`): it closed
   * the value there, and what the model wrote after that point is lost. A
   * stop at `</…`, `<|…`, `<｜…` or a backtick only left out closing brackets.
   *
   * @returns the character and where, for a message; undefined when nothing
   *   was lost; "" when the character after a `<` is still to come.
   */
  #brokenAt(read: JsonRead): string | undefined {
    const repairs = read.parser.repairs;
    const stop = repairs.find((repair) => repair.kind === "stopped");
    if (stop === undefined) return undefined;
    const at = read.base + stop.offset;
    const c = this.code(at);
    // A key or a value dropped where the parser stopped.
    const lost = repairs.some((repair) => repair.offset === stop.offset && repair.kind.startsWith("dropped-"));
    if (!lost && c === 96) return undefined;
    if (!lost && c === 60) {
      if (at + 1 >= this.total && !this.ended) return "";
      const next = this.code(at + 1);
      if (next === 47 || isBar(next)) return undefined;
    }
    return this.#charAt(at);
  }

  /** A call whose JSON the parser closed at a stop that lost part of it is not a step. */
  #dropBroken(read: JsonRead, step: unknown, broken: string): void {
    const name = callNameOf(step);
    const call = name === undefined ? "A call" : `The call "${name}"`;
    this.#drop(
      read.base,
      `${call} breaks off at an unexpected ${broken} before its JSON closed, so its arguments are incomplete; it was dropped`,
    );
  }

  /**
   * Reads a root value that is calls quoted as strings, alone or in a list
   * (`["f(a=1)", "g(b=2)"]`), or a whole answer JSON-encoded inside a string.
   *
   * @param read - the read that gave the value.
   * @param root - the value.
   * @param broken - where a stop inside the value lost part of it, if it did.
   * @returns whether it was read so.
   */
  #readQuoted(read: JsonRead, root: unknown, broken: string | undefined): boolean {
    const quoted = typeof root === "string" ? [root] : Array.isArray(root) ? root : [];
    if (
      broken === undefined &&
      quoted.length > 0 &&
      quoted.every((item) => typeof item === "string" && QUOTED_CALL_PATTERN.test(item.trim())) &&
      this.#readNested(read, quoted as string[])
    )
      return true;
    if (typeof root !== "string") return false;
    const inner = root.trim();
    return /^[[{<`]/u.test(inner) && this.#readNested(read, [inner]);
  }

  /**
   * Takes the steps of a root value: the elements of its list of steps (a
   * root array, or the array a wrapper key holds) not taken yet, or the call
   * it is. A value that holds no steps is kept as a value.
   *
   * @param read - the read that gave the value.
   * @param root - the value.
   * @param take - takes a step, and whether it is one of a block of calls.
   */
  #takeRoot(read: JsonRead, root: unknown, take: (step: unknown, inBlock: boolean) => void): void {
    const key = read.parser.unwrappedKey;
    const list = key !== undefined ? (root as Record<string, unknown>)[key] : root;
    if (!Array.isArray(list)) {
      const step = this.#callOf(read, root);
      // Arguments a marker before the fence named are a call of that marker, not a block of calls.
      if (step !== undefined) take(step, !read.named);
      else this.#values.push(root);
    } else if (read.plan === false || (read.plan === undefined && key === undefined && !isRecord(list[0])))
      this.#values.push(root);
    // Elements that a stop (a closing tag, say) closed rather than their own bracket.
    else for (const item of list.slice(read.streamed)) take(toCallStep(item) ?? item, true);
  }

  /**
   * Reads texts found inside a value (a string holding an answer or a call)
   * as answers of their own, and takes their calls when each text held one.
   *
   * @param read - the read that gave the value.
   * @param texts - the texts.
   * @returns whether every text held a call, cut off or dropped (then all are taken).
   */
  #readNested(read: JsonRead, texts: readonly string[]): boolean {
    const results = texts.map((text) => {
      const nested = new Reader(this.#options);
      const steps = nested.write(text.trim());
      const result = nested.end();
      result.steps.unshift(...steps);
      return result;
    });
    if (!results.every(({ steps, cutOff, dropped }) => steps.length + cutOff.length + dropped.length > 0)) return false;
    for (const { steps, cutOff, dropped } of results) {
      for (const step of steps) this.#emit(step);
      for (const cut of cutOff) this.#cut(read.base, cut.what);
      for (const drop of dropped) this.#drop(read.base, drop.message);
    }
    return true;
  }

  /** The step a root value is: a named call's arguments, or what {@link toCallStep} reads. */
  #callOf(read: JsonRead, root: unknown): Record<string, unknown> | undefined {
    return read.named && read.name !== undefined && isRecord(root)
      ? { name: read.name, arguments: root }
      : toCallStep(root, read.name);
  }

  /** The text ended inside a JSON value: close it and report what was cut off. */
  #endJson(read: JsonRead): void {
    this.#json = undefined;
    let root: unknown;
    try {
      root = read.parser.end();
    } catch {
      return;
    }
    this.#found = true;
    this.#takeRoot(read, root, () => this.#cut(read.base, "its JSON"));
  }

  // Pythonic calls ------------------------------------------------------------

  /** The text is no call after all: it is prose from `pos` on. */
  leavePython(): true {
    this.#python = undefined;
    this.#callPosition = false;
    return true;
  }

  emitPython(read: PythonRead): void {
    const args = pythonicCallArguments(read, this.#options.parameterNames);
    if (typeof args !== "string") this.#emit({ name: read.name, arguments: args });
    else this.#drop(read.start, args);
  }

  /**
   * The text ended inside a call's parentheses: at the end of the text, only
   * the phases inside them wait for more (a phase returns false);
   * the others end the list.
   */
  #endPython(read: PythonRead): void {
    this.#python = undefined;
    this.#cut(read.start, `the call "${read.name}(…"`);
  }
}

/**
 * Creates a reader of tool calls in a model's raw text. It finds the format
 * by itself and hands out each call the moment it closes, as a raw step for
 * `normalizeStep` (ids `s1`, `s2`, … are given there when absent).
 *
 * Formats read (see docs/formats.md): JSON arrays of steps or calls; several
 * JSON values in a row (one per line, concatenated or between prose);
 * wrapper objects (`steps`, `plan`, `tool_calls`, `calls`, `actions`,
 * `function_calls`, `functions`, `tasks`); `<tool_call>`,
 * `<function_call>`, `<tools>` and `<|python_tag|>` blocks, `[TOOL_CALLS]`,
 * `<function=name>{…}`, `name[ARGS]{…}`; DeepSeek's `<｜tool▁call▁begin｜>`
 * calls (`function<｜tool▁sep｜>name` then fenced JSON, or
 * `name<｜tool▁sep｜>{…}`; `|` and `_` accepted for `｜` and `▁`); code fences; call objects and
 * records `{tool_name: {args}}`; a tool name on its own line followed by
 * its JSON arguments; pythonic calls `[f(a=1), g.h(b="x")]`, `f(a=1); g(b=2)`
 * in a call position; positional arguments (`get_weather("Paris", 3)`) are
 * named after the tool's parameters when `options.parameterNames` knows them.
 *
 * @param options - `parameterNames`, to name positional arguments.
 * @returns a fresh reader.
 *
 * @example
 * ```ts
 * const reader = createToolCallReader();
 * reader.write('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}'); // → [{ name: "get_weather", arguments: { city: "Paris" } }]
 * reader.write("</tool_call>");                                                        // → []
 * reader.end();                                                                        // → { steps: [], cutOff: [], dropped: [], values: [], found: true }
 * ```
 */
export function createToolCallReader(options: ToolCallReaderOptions = {}): ToolCallReader {
  return new Reader(options);
}
