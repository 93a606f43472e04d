/**
 * Reading pythonic call lists (`[f(a=1), g.h(b="x")]`, `f(a=1); g(b=2)`) for
 * `createToolCallReader`: the reader finds where such a list starts (a call
 * position), then runs the list's {@link PythonRead.phase} until the list
 * ends, reading through the {@link PythonicCallHost} it implements.
 *
 * @module
 */
import { createJsonStreamParser, type JsonStreamParser } from "../json/create-json-stream-parser.ts";
import { isBlank, isIdentifierPart, isIdentifierStart, isNewline } from "../shared/char-codes.ts";
import { countOf } from "../shared/count-of.ts";
import { MAX_NAME_LENGTH } from "./call-formats.ts";

/**
 * What a pythonic call list reads next (where it is): a step of the list.
 *
 * @returns false when more text is needed (or, at the end, when a call was cut off).
 */
type PythonPhase = (host: PythonicCallHost, read: PythonRead) => boolean;

/** A pythonic call list being read. */
export interface PythonRead {
  bracketed: boolean;
  /** Reads on from `host.pos`. */
  phase: PythonPhase;
  start: number;
  name: string;
  /** The keyword being read, or "" for a positional argument. */
  key: string;
  /** Where the word read as `key` began: it is a positional value when no `=` follows. */
  keyStart: number;
  arguments: Record<string, unknown>;
  positional: unknown[];
  value: JsonStreamParser | undefined;
  valueBase: number;
}

/** What the reading of a pythonic call list needs of the tool-call reader. */
export interface PythonicCallHost {
  /** The offset being read in the whole text; advanced as the list is read. */
  pos: number;
  /** The length of the text so far. */
  readonly total: number;
  /** Whether the text has ended. */
  readonly ended: boolean;
  /** Whether the list is in a code fence (where `#` comments are allowed). */
  readonly inFence: boolean;
  code(at: number): number;
  slice(from: number, to: number): string;
  /** Whether a call (`name(`) starts at `at`; undefined when more text is needed. */
  callAhead(at: number): boolean | undefined;
  /** Feeds the parser the text from `at` on. */
  feedFrom(parser: JsonStreamParser, at: number): void;
  /** A call of the list closed. */
  emitPython(read: PythonRead): void;
  /** The list ended (or was no call after all): prose from `pos` on. */
  leavePython(): true;
}

/**
 * A pythonic call list starting at `at`.
 *
 * @param bracketed - whether a `[` opened it.
 * @param at - the offset of its first call.
 * @returns its state.
 */
export function newPythonRead(bracketed: boolean, at: number): PythonRead {
  return {
    bracketed,
    phase: readName,
    start: at,
    name: "",
    key: "",
    keyStart: at,
    arguments: {},
    positional: [],
    value: undefined,
    valueBase: at,
  };
}

function setArgument(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Skips blanks, and newlines when asked, from `from`.
 *
 * @returns the offset of the first other character, or the end of the text so far.
 */
export function skipSpaces(host: PythonicCallHost, from: number, newlines: boolean): number {
  let j = from;
  while (j < host.total) {
    const c = host.code(j);
    if (isBlank(c) || (newlines && isNewline(c))) j++;
    else break;
  }
  return j;
}

/**
 * Where the text of a pythonic call list must be kept from, reading at
 * `pos`: a word read as a keyword may turn out to be a positional value.
 *
 * @param read - the list.
 * @param pos - the offset being read.
 * @returns the offset.
 */
export function pythonTextFrom(read: PythonRead, pos: number): number {
  return read.phase === readKey || read.phase === readEquals ? Math.min(pos, read.keyStart) : pos;
}

/** The call's name, up to its `(` (callAhead saw `name(`). */
function readName(host: PythonicCallHost, read: PythonRead): boolean {
  read.start = host.pos;
  let j = host.pos;
  while (host.code(j) !== 40) j++;
  read.name = host.slice(host.pos, j);
  read.arguments = {};
  read.positional = [];
  host.pos = j + 1;
  read.phase = readArgument;
  return true;
}

/** After the `(` or a `,`: the `)` that closes the call, a keyword argument or a positional one. */
function readArgument(host: PythonicCallHost, read: PythonRead): boolean {
  const j = skipSpaces(host, host.pos, true);
  host.pos = j;
  if (j === host.total) return false;
  const c = host.code(j);
  if (c === 41) {
    host.pos++;
    read.phase = readAfterCall;
    return true;
  }
  if (isIdentifierStart(c)) {
    read.keyStart = j;
    read.phase = readKey;
    return true;
  }
  return startPositional(host, read, j);
}

/** After an argument's value: the `,` before the next one (or before the `)`), or the `)`. */
function readNext(host: PythonicCallHost, read: PythonRead): boolean {
  const j = skipSpaces(host, host.pos, true);
  host.pos = j;
  if (j === host.total) return false;
  const c = host.code(j);
  if (c !== 41 && c !== 44) return host.leavePython();
  if (c === 44) host.pos++;
  read.phase = readArgument;
  return true;
}

/** A keyword argument's name. */
function readKey(host: PythonicCallHost, read: PythonRead): boolean {
  let j = host.pos;
  while (j < host.total && j - host.pos < MAX_NAME_LENGTH && isIdentifierPart(host.code(j))) j++;
  if (j === host.total) return false;
  read.key = host.slice(host.pos, j);
  host.pos = j;
  read.phase = readEquals;
  return true;
}

/** The `=` after a keyword, or no `=`: the word was a positional value (`True`). */
function readEquals(host: PythonicCallHost, read: PythonRead): boolean {
  const j = skipSpaces(host, host.pos, true);
  if (j >= host.total || (j + 1 >= host.total && !host.ended)) return false;
  // `=` but not `==`: a keyword argument; no `=`: the word was a positional value (`True`).
  if (host.code(j) !== 61) return startPositional(host, read, read.keyStart);
  if (host.code(j + 1) === 61) return host.leavePython();
  host.pos = j + 1;
  read.phase = readValue;
  return true;
}

/** An argument's value, read by a JSON parser of its own. */
function readValue(host: PythonicCallHost, read: PythonRead): boolean {
  if (read.value === undefined) {
    const j = skipSpaces(host, host.pos, true);
    host.pos = j;
    if (j === host.total) return false;
    read.value = createJsonStreamParser({ prose: false });
    read.valueBase = j;
    host.feedFrom(read.value, j);
  }
  const value = read.value;
  // Still open at the end of the text: cut off mid-argument (see endPython).
  if (value.status === "reading") return false;
  read.value = undefined;
  if (value.status === "rejected") {
    host.pos = read.valueBase + (value.restOffset ?? 1);
    return host.leavePython();
  }
  // A call as a value (`f(a=g(1))`) is an expression, not a literal: no call.
  if (value.repairs.some((repair) => repair.kind === "function-wrapper" && repair.offset === 0))
    return host.leavePython();
  if (read.key === "") read.positional.push(value.end());
  else setArgument(read.arguments, read.key, value.end());
  host.pos = read.valueBase + (value.restOffset ?? host.total - read.valueBase);
  read.phase = readNext;
  return true;
}

/**
 * After the `)`: the call counts when what follows on its line confirms it (a
 * separator, the end, a tag, a fence, the list's `]`, a comment in a fence);
 * the separator reads what comes next.
 */
function readAfterCall(host: PythonicCallHost, read: PythonRead): boolean {
  const j = skipSpaces(host, host.pos, false);
  host.pos = j;
  if (j === host.total && !host.ended) return false;
  const c = host.code(j);
  const separator = c === 44 || c === 59;
  if (
    !(j === host.total || separator || isNewline(c) || c === 60 || c === 96) &&
    !(c === 93 && read.bracketed) &&
    !(c === 35 && host.inFence)
  )
    return host.leavePython();
  host.emitPython(read);
  // Outside brackets, `;` and `,` only separate calls here, after a call.
  if (separator) host.pos++;
  read.phase = readSeparator;
  return true;
}

/** A `#` comment in a code fence runs to the line end; a call may follow on the next line. */
function readComment(host: PythonicCallHost, read: PythonRead): boolean {
  let j = host.pos;
  while (j < host.total && !isNewline(host.code(j))) j++;
  host.pos = j;
  if (j === host.total && !host.ended) return false;
  // The separator reads the line end, or ends the list at the end of the text.
  read.phase = readSeparator;
  return true;
}

/** Between calls: a separator, the list's end, or the next call. */
function readSeparator(host: PythonicCallHost, read: PythonRead): boolean {
  const j = skipSpaces(host, host.pos, true);
  host.pos = j;
  if (j === host.total) return host.ended ? host.leavePython() : false;
  const c = host.code(j);
  if ((c === 44 || c === 59) && read.bracketed) {
    host.pos++;
    return true;
  }
  if (c === 93 && read.bracketed) {
    host.pos++;
    return host.leavePython();
  }
  if (c === 35 && host.inFence) {
    host.pos++;
    read.phase = readComment;
    return true;
  }
  const call = host.callAhead(j);
  if (call === undefined) return false;
  if (call) {
    read.phase = readName;
    return true;
  }
  return host.leavePython();
}

/** A positional argument starts at `at`; Python allows none after a keyword argument. */
function startPositional(host: PythonicCallHost, read: PythonRead, at: number): boolean {
  if (Object.keys(read.arguments).length > 0) return host.leavePython();
  read.key = "";
  host.pos = at;
  read.phase = readValue;
  return true;
}

/**
 * The arguments of a call that closed: positional arguments take the tool's
 * parameter names in schema order.
 *
 * @param read - the call.
 * @param parameterNames - the parameter names of a tool, as in the reader's options.
 * @returns the arguments, or why the call is dropped.
 */
export function pythonicCallArguments(
  read: PythonRead,
  parameterNames: ((tool: string) => readonly string[] | undefined) | undefined,
): Record<string, unknown> | string {
  if (read.positional.length === 0) return read.arguments;
  const names = parameterNames?.(read.name) ?? [];
  const args: Record<string, unknown> = {};
  let why: string | undefined;
  if (names.length === 0) why = `passes argument 1 by position, and the parameters of "${read.name}" are not known`;
  else if (read.positional.length > names.length)
    why = `passes argument ${names.length + 1} by position, and "${read.name}" has only ${countOf(names.length, "parameter")} (${names.join(", ")})`;
  else
    for (let index = 0; index < read.positional.length; index++) {
      const name = names[index]!;
      if (Object.hasOwn(read.arguments, name)) {
        why = `passes "${name}" both by position (argument ${index + 1}) and by name`;
        break;
      }
      setArgument(args, name, read.positional[index]);
    }
  if (why !== undefined) return `The call "${read.name}(…)" ${why}; it was dropped`;
  for (const [key, value] of Object.entries(read.arguments)) setArgument(args, key, value);
  return args;
}
