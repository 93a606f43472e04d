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
 *    a separator, a closing tag or fence, or the end.
 * 4. **Linear.** Each character is read a bounded number of times.
 *
 * @module
 */
import { createJsonStreamParser, type JsonStreamParser } from "../json/create-json-stream-parser.ts";
import { isPlainObject } from "./normalize-step.ts";
import { toCallStep } from "./to-call-step.ts";

/** Keys under which a root object may wrap its list of steps or calls. */
export const WRAPPER_KEYS: readonly string[] = ["steps", "plan", "tool_calls", "calls", "actions", "function_calls", "functions", "tasks"];

/** Something that was cut off by the end of the text before it closed. */
export interface CutOffCall {
  /** Offset in the whole text where it began. */
  offset: number;
  /** What it was, for a message: `its JSON`, `the call "get_weather(…"`. */
  what: string;
}

/** What {@link ToolCallReader.end} returns. */
export interface ToolCallReadResult {
  /** Steps the end of the text completed (the others were handed out by `write()`). */
  steps: unknown[];
  /** Calls the end of the text cut off, in order: they are not steps. */
  cutOff: CutOffCall[];
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
}

/** Tags (`<x>`, `</x>`, `<|x|>`) around tool calls; after an opening one comes a call position. */
const callTags = new Set([
  "tool_call", "tool_calls", "function_call", "function_calls", "functioncall", "tools", "python_tag", "toolcall", "tool_code",
]);
/** Special tokens that end a model turn or a call block. */
const endTags = new Set(["eom_id", "eot_id", "im_end", "end", "call", "/s"]);
/** The longest tag looked for, so that a lone `<` in prose is decided quickly. */
const maxTagLength = 64;

const identifierStart = /[A-Za-z_$]/u;
const identifierPart = /[\w$]/u;
const toolNameLine = /^[A-Za-z_$][\w$.-]*$/u;

/** A JSON value being read. */
interface JsonRead {
  parser: JsonStreamParser;
  /** Offset of its first character in the whole text. */
  base: number;
  /** Offset up to which the text was fed. */
  fed: number;
  /** For a root array: whether its elements are steps (decided by the first one). */
  plan: boolean | undefined;
  streamed: number;
  /** The tool name written before it. */
  name: string | undefined;
}

/** Where a pythonic call list is. */
type PythonPhase = "name" | "open" | "arguments" | "key" | "equals" | "value" | "next" | "after" | "separator";

interface PythonRead {
  bracketed: boolean;
  phase: PythonPhase;
  start: number;
  name: string;
  key: string;
  arguments: Record<string, unknown>;
  value: JsonRead | undefined;
}

function isSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\u00a0" || c === "\ufeff";
}

function setArgument(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

class Reader implements ToolCallReader {
  private text = "";
  private pos = 0;
  private ended = false;
  /** A pythonic call may start here: the answer's start, after a call tag, in a fence. */
  private callPosition = true;
  private inFence = false;
  /** A tool name given by a `<function=name>` tag for the next JSON value. */
  private tagName: string | undefined;
  private json: JsonRead | undefined;
  private python: PythonRead | undefined;
  private out: unknown[] = [];
  private readonly cutOff: CutOffCall[] = [];
  private readonly values: unknown[] = [];
  private found = false;

  write(chunk: string): unknown[] {
    if (this.ended) throw new TypeError("ToolCallReader.write() was called after end()");
    this.out = [];
    this.text += chunk;
    this.scan();
    return this.out;
  }

  end(): ToolCallReadResult {
    if (this.ended) throw new TypeError("ToolCallReader.end() was called twice");
    this.ended = true;
    this.out = [];
    this.scan();
    if (this.json !== undefined) this.endJson(this.json);
    if (this.python !== undefined) this.endPython(this.python);
    return { steps: this.out, cutOff: this.cutOff, values: this.values, found: this.found || this.out.length > 0 };
  }

  private emit(step: unknown): void {
    this.found = true;
    this.out.push(step);
  }

  /** Reads as far as the text allows (to the end once `end()` was called). */
  private scan(): void {
    const text = this.text;
    for (;;) {
      if (this.json !== undefined) {
        if (!this.feedJson(this.json)) return;
        this.finishJson(this.json);
        this.json = undefined;
        continue;
      }
      if (this.python !== undefined) {
        if (!this.stepPython(this.python)) return;
        continue;
      }
      if (this.pos >= text.length) return;
      if (!this.stepProse()) return;
    }
  }

  /**
   * Reads prose at `pos`: a tag, a fence, a JSON value or a pythonic call in a call position.
   *
   * @returns false when more text is needed to decide.
   */
  private stepProse(): boolean {
    const text = this.text;
    const at = this.pos;
    const c = text[at]!;
    if (isSpace(c)) {
      this.pos++;
      return true;
    }
    if (c === "<") return this.readTag();
    if (c === "`") return this.readFence();
    if (c === "[") {
      const marker = "[TOOL_CALLS]";
      if (text.startsWith(marker.slice(0, Math.min(marker.length, text.length - at)), at) && text.length - at < marker.length && !this.ended) return false;
      if (text.startsWith(marker, at)) {
        this.pos = at + marker.length;
        this.callPosition = true;
        return true;
      }
      if (this.callPosition) {
        let j = at + 1;
        while (j < text.length && isSpace(text[j]!)) j++;
        if (j === text.length && !this.ended) return false;
        const call = this.callAhead(j);
        if (call === undefined) return false;
        if (call) {
          this.python = this.newPython(true, j);
          this.pos = j;
          return true;
        }
      }
      this.startJson(at, undefined);
      return true;
    }
    if (c === "{") {
      this.startJson(at, this.tagName ?? this.nameBefore(at));
      return true;
    }
    if (c === '"' && this.callPosition) {
      this.startJson(at, undefined);
      return true;
    }
    if (this.callPosition && identifierStart.test(c)) {
      const call = this.callAhead(at);
      if (call === undefined) return false;
      if (call) {
        this.python = this.newPython(false, at);
        return true;
      }
    }
    this.callPosition = false;
    this.pos++;
    return true;
  }

  /**
   * Whether a pythonic call (`name(` or `dotted.name(`) starts at `at`.
   *
   * @returns undefined when more text is needed.
   */
  private callAhead(at: number): boolean | undefined {
    const text = this.text;
    if (at >= text.length || !identifierStart.test(text[at]!)) return at >= text.length && !this.ended ? undefined : false;
    let j = at + 1;
    while (j < text.length && (identifierPart.test(text[j]!) || text[j] === ".")) j++;
    if (j === text.length) return this.ended ? false : undefined;
    return text[j] === "(";
  }

  /** Reads a tag at `pos` (`<tool_call>`, `</tool_call>`, `<|python_tag|>`, `<function=name>`). */
  private readTag(): boolean {
    const text = this.text;
    const at = this.pos;
    const close = text.indexOf(">", at + 1);
    if (close < 0 || close - at > maxTagLength) {
      if (close < 0 && text.length - at <= maxTagLength && !this.ended) return false;
      this.callPosition = false;
      this.pos++;
      return true;
    }
    let inner = text.slice(at + 1, close);
    let closing = false;
    if (inner.startsWith("|") && inner.endsWith("|")) inner = inner.slice(1, -1);
    if (inner.startsWith("/")) {
      closing = true;
      inner = inner.slice(1);
    }
    inner = inner.trim();
    const name = inner.toLowerCase();
    if (name.startsWith("function=") && !closing) {
      const tool = inner.slice("function=".length).trim();
      if (toolNameLine.test(tool)) {
        this.tagName = tool;
        this.callPosition = false;
        this.pos = close + 1;
        return true;
      }
    }
    if (callTags.has(name) || name === "function") {
      this.callPosition = !closing && name !== "function";
      if (closing) this.tagName = undefined;
      this.pos = close + 1;
      return true;
    }
    if (endTags.has(name) || (closing && endTags.has(`/${name}`))) {
      this.callPosition = false;
      this.pos = close + 1;
      return true;
    }
    this.callPosition = false;
    this.pos++;
    return true;
  }

  /** Reads a code fence at `pos`: an opening one (with its language line) starts a call position. */
  private readFence(): boolean {
    const text = this.text;
    const at = this.pos;
    if (text.length - at < 3 && !this.ended && "```".startsWith(text.slice(at))) return false;
    if (!text.startsWith("```", at)) {
      this.callPosition = false;
      this.pos++;
      return true;
    }
    let j = at + 3;
    if (this.inFence) {
      this.inFence = false;
      this.callPosition = false;
      this.pos = j;
      return true;
    }
    while (j < text.length && /[\w+.-]/u.test(text[j]!)) j++;
    if (j === text.length && !this.ended) return false;
    this.inFence = true;
    this.callPosition = true;
    this.pos = j;
    return true;
  }

  /**
   * The tool name on the line before a JSON object at `at`, when that line
   * holds nothing else (`get_weather\n{"city": "Paris"}`), or before `[ARGS]`.
   */
  private nameBefore(at: number): string | undefined {
    const text = this.text;
    let j = at - 1;
    while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
    if (text.endsWith("[ARGS]", j + 1)) {
      const end = j + 1 - "[ARGS]".length;
      let start = end;
      while (start > 0 && /[\w$.-]/u.test(text[start - 1]!)) start--;
      const name = text.slice(start, end);
      return toolNameLine.test(name) ? name : undefined;
    }
    if (j < 0 || text[j] !== "\n") return undefined;
    if (j > 0 && text[j - 1] === "\r") j--;
    const lineStart = text.lastIndexOf("\n", j - 1) + 1;
    const line = text.slice(lineStart, j).trim();
    return toolNameLine.test(line) ? line : undefined;
  }

  // JSON values ---------------------------------------------------------------

  private startJson(at: number, name: string | undefined): void {
    const parser = createJsonStreamParser({ prose: false, unwrapKeys: WRAPPER_KEYS });
    this.json = { parser, base: at, fed: at, plan: undefined, streamed: 0, name };
    this.tagName = undefined;
  }

  /** Feeds the new text to the value; returns whether it is complete (or rejected). */
  private feedJson(read: JsonRead): boolean {
    if (read.fed < this.text.length) {
      const elements = read.parser.write(this.text.slice(read.fed));
      read.fed = this.text.length;
      for (const element of elements) this.takeElement(read, element);
    }
    return read.parser.status !== "reading";
  }

  /** An element of a root array (or of a wrapped list) closed. */
  private takeElement(read: JsonRead, element: unknown): void {
    if (read.plan === undefined) read.plan = read.parser.unwrappedKey !== undefined || isPlainObject(element);
    if (!read.plan) return;
    read.streamed++;
    this.emit(toCallStep(element) ?? element);
  }

  /** The value is complete or was rejected: take it, and go on after it. */
  private finishJson(read: JsonRead): void {
    const parser = read.parser;
    if (parser.status === "rejected") {
      this.pos = read.base + (parser.restOffset ?? 1);
      this.callPosition = false;
      return;
    }
    this.pos = read.base + (parser.restOffset ?? read.fed - read.base);
    this.callPosition = false;
    this.takeRoot(read, parser.end());
  }

  /** The whole root value is known. */
  private takeRoot(read: JsonRead, root: unknown): void {
    this.found = true;
    const key = read.parser.unwrappedKey;
    const list = key !== undefined ? (root as Record<string, unknown>)[key] : root;
    if (Array.isArray(list)) {
      if (read.plan === false || (read.plan === undefined && key === undefined && !isPlainObject(list[0]))) {
        this.values.push(root);
        return;
      }
      // Elements that a stop (a closing tag, say) closed rather than their own bracket.
      for (let index = read.streamed; index < list.length; index++) this.emit(toCallStep(list[index]) ?? list[index]);
      return;
    }
    if (typeof root === "string") {
      const inner = root.trim();
      if (/^[[{<`]/u.test(inner)) {
        // A whole answer JSON-encoded inside a string.
        const nested = new Reader();
        const steps = nested.write(inner);
        const rest = nested.end();
        if (steps.length + rest.steps.length > 0 || rest.cutOff.length > 0) {
          for (const step of [...steps, ...rest.steps]) this.emit(step);
          for (const cut of rest.cutOff) this.cutOff.push({ offset: read.base, what: cut.what });
          return;
        }
      }
    }
    const step = toCallStep(root, read.name);
    if (step !== undefined) this.emit(step);
    else this.values.push(root);
  }

  /** The text ended inside a JSON value: close it and report what was cut off. */
  private endJson(read: JsonRead): void {
    this.json = undefined;
    let root: unknown;
    try {
      root = read.parser.end();
    } catch {
      return;
    }
    this.found = true;
    const list = read.parser.unwrappedKey !== undefined ? (root as Record<string, unknown>)[read.parser.unwrappedKey] : root;
    if (Array.isArray(list)) {
      if (read.plan === false || (read.plan === undefined && !isPlainObject(list[0]) && read.parser.unwrappedKey === undefined)) {
        this.values.push(root);
        return;
      }
      for (let index = read.streamed; index < list.length; index++) this.cutOff.push({ offset: read.base, what: "its JSON" });
      return;
    }
    if (toCallStep(root, read.name) !== undefined) this.cutOff.push({ offset: read.base, what: "its JSON" });
    else this.values.push(root);
  }

  // Pythonic calls ------------------------------------------------------------

  private newPython(bracketed: boolean, at: number): PythonRead {
    return { bracketed, phase: "name", start: at, name: "", key: "", arguments: {}, value: undefined };
  }

  /** The pythonic text is no call after all: it is prose from here on. */
  private rejectPython(): true {
    this.python = undefined;
    this.callPosition = false;
    return true;
  }

  /** The call list ended at `pos`: what follows is read as prose. */
  private leavePython(position: boolean): true {
    this.python = undefined;
    this.callPosition = position;
    return true;
  }

  /**
   * Advances the pythonic call list.
   *
   * @returns false when more text is needed.
   */
  private stepPython(read: PythonRead): boolean {
    const text = this.text;
    const ended = this.ended;
    switch (read.phase) {
      case "name": {
        read.start = this.pos;
        let j = this.pos;
        while (j < text.length && (identifierPart.test(text[j]!) || text[j] === ".")) j++;
        if (j === text.length && !ended) return false;
        read.name = text.slice(this.pos, j);
        read.arguments = {};
        this.pos = j;
        if (text[j] !== "(" || read.name.endsWith(".")) return this.rejectPython();
        this.pos++;
        read.phase = "arguments";
        return true;
      }
      case "arguments":
      case "next": {
        const j = this.skipSpaces(this.pos, true);
        this.pos = j;
        if (j === text.length) return false;
        const c = text[j]!;
        if (c === ")") {
          this.pos++;
          read.phase = "after";
          return true;
        }
        if (read.phase === "next") {
          if (c !== ",") return this.rejectPython();
          this.pos++;
          read.phase = "arguments";
          return true;
        }
        if (!identifierStart.test(c)) return this.rejectPython();
        read.phase = "key";
        return true;
      }
      case "key": {
        let j = this.pos;
        while (j < text.length && identifierPart.test(text[j]!)) j++;
        if (j === text.length) return false;
        read.key = text.slice(this.pos, j);
        this.pos = j;
        read.phase = "equals";
        return true;
      }
      case "equals": {
        const j = this.skipSpaces(this.pos, true);
        if (j >= text.length || (j + 1 >= text.length && !ended)) return false;
        // `=` but not `==`: a keyword argument. Positional arguments are not read.
        if (text[j] !== "=" || text[j + 1] === "=") return this.rejectPython();
        this.pos = j + 1;
        read.phase = "value";
        return true;
      }
      case "value": {
        if (read.value === undefined) {
          const j = this.skipSpaces(this.pos, true);
          this.pos = j;
          if (j === text.length) return false;
          const parser = createJsonStreamParser({ prose: false });
          read.value = { parser, base: j, fed: j, plan: false, streamed: 0, name: undefined };
        }
        const value = read.value;
        if (value.fed < text.length) {
          value.parser.write(text.slice(value.fed));
          value.fed = text.length;
        }
        // Still open at the end of the text: cut off mid-argument (see endPython).
        if (value.parser.status === "reading") return false;
        read.value = undefined;
        if (value.parser.status === "rejected") return this.rejectPython();
        setArgument(read.arguments, read.key, value.parser.end());
        this.pos = value.base + (value.parser.restOffset ?? value.fed - value.base);
        read.phase = "next";
        return true;
      }
      case "after": {
        // The call closed; it counts when what follows confirms it.
        const j = this.skipSpaces(this.pos, false);
        this.pos = j;
        if (j === text.length) {
          if (!ended) return false;
          this.emitPython(read);
          return this.leavePython(false);
        }
        const c = text[j]!;
        if (c === "\n" || c === "\r" || c === "," || c === ";") {
          this.emitPython(read);
          this.pos++;
          read.phase = "separator";
          return true;
        }
        if (c === "]" && read.bracketed) {
          this.emitPython(read);
          this.pos++;
          return this.leavePython(false);
        }
        if (c === "<" || c === "`") {
          this.emitPython(read);
          return this.leavePython(false);
        }
        return this.rejectPython();
      }
      case "separator": {
        const j = this.skipSpaces(this.pos, true);
        this.pos = j;
        if (j === text.length) return ended ? this.leavePython(false) : false;
        const c = text[j]!;
        if ((c === "," || c === ";") && read.bracketed) {
          this.pos++;
          return true;
        }
        if (c === "]" && read.bracketed) {
          this.pos++;
          return this.leavePython(false);
        }
        const call = this.callAhead(j);
        if (call === undefined) return false;
        if (call) {
          read.phase = "name";
          return true;
        }
        return this.leavePython(false);
      }
      default:
        return this.rejectPython();
    }
  }

  private emitPython(read: PythonRead): void {
    this.emit({ name: read.name, arguments: read.arguments });
  }

  /** The text ended inside a pythonic call list. */
  private endPython(read: PythonRead): void {
    this.python = undefined;
    if (read.phase === "name" || read.phase === "separator" || read.phase === "after") return;
    this.found = true;
    this.cutOff.push({ offset: read.start, what: `the call "${read.name}(…"` });
  }

  private skipSpaces(from: number, newlines: boolean): number {
    const text = this.text;
    let j = from;
    while (j < text.length) {
      const c = text[j]!;
      if (c === " " || c === "\t" || c === "\u00a0" || ((c === "\n" || c === "\r") && newlines)) j++;
      else break;
    }
    return j;
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
 * `<function=name>{…}`, `name[ARGS]{…}`; code fences; call objects and
 * records `{tool_name: {args}}`; a tool name on its own line followed by
 * its JSON arguments; pythonic calls `[f(a=1), g.h(b="x")]`, `f(a=1); g(b=2)`
 * in a call position.
 *
 * @returns a fresh reader.
 *
 * @example
 * ```ts
 * const reader = createToolCallReader();
 * reader.write('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}'); // → [{ name: "get_weather", arguments: { city: "Paris" } }]
 * reader.write("</tool_call>");                                                        // → []
 * reader.end();                                                                        // → { steps: [], cutOff: [], values: [], found: true }
 * ```
 */
export function createToolCallReader(): ToolCallReader {
  return new Reader();
}
