import { expect } from "vitest";

/**
 * Whether two parsed JSON values are the same: same types, same own keys in the
 * same order, plain prototypes, and numbers equal by `Object.is` (so -0 ≠ 0).
 * Unlike `toStrictEqual`, keys such as "constructor" are compared as data.
 */
export function isSameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i]) return false;
    if (!isSameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Asserts {@link isSameJson}, showing both values on failure. */
export function expectSameJson(actual: unknown, expected: unknown): void {
  if (!isSameJson(actual, expected)) {
    expect(JSON.stringify(actual) ?? String(actual)).toBe(JSON.stringify(expected) ?? String(expected));
    throw new Error(`Values differ beyond their JSON text (-0, key order or prototypes): ${JSON.stringify(actual)}`);
  }
}

/** What `JSON.parse(JSON.stringify(value))` gives, computed without either: the oracle of property tests. */
export function toJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === "object" && value !== null) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(result, key, {
        value: toJsonValue((value as Record<string, unknown>)[key]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return result;
  }
  return Object.is(value, -0) ? 0 : value;
}

/**
 * Decodes a text `JSON.parse` accepts, written here without `JSON.parse`: the
 * second oracle when V8's `JSON.parse` misdecodes an escaped key (it may,
 * after certain earlier parses, in Deno and Chromium).
 *
 * @param text - a valid JSON text.
 * @returns its value.
 */
export function decodeValidJson(text: string): unknown {
  let at = 0;
  const space = (): void => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const string = (): string => {
    let out = "";
    at++;
    for (;;) {
      const character = text[at++]!;
      if (character === '"') return out;
      if (character !== "\\") {
        out += character;
        continue;
      }
      const escape = text[at++]!;
      if (escape === "u") {
        out += String.fromCharCode(Number.parseInt(text.slice(at, at + 4), 16));
        at += 4;
      } else out += ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[escape] ?? escape;
    }
  };
  const value = (): unknown => {
    space();
    const character = text[at]!;
    if (character === '"') return string();
    if (character === "[") {
      const list: unknown[] = [];
      at++;
      space();
      if (text[at] === "]") return (at++, list);
      for (;;) {
        list.push(value());
        space();
        if (text[at++] === "]") return list;
      }
    }
    if (character === "{") {
      const object: Record<string, unknown> = {};
      at++;
      space();
      if (text[at] === "}") return (at++, object);
      for (;;) {
        space();
        const key = string();
        space();
        at++;
        Object.defineProperty(object, key, { value: value(), writable: true, enumerable: true, configurable: true });
        space();
        if (text[at++] === "}") return object;
      }
    }
    for (const [word, literal] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, at)) return ((at += word.length), literal);
    }
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/u.exec(text.slice(at))![0];
    at += number.length;
    return Number(number);
  };
  return value();
}

/**
 * Asserts that a value is what `JSON.parse` gave for a text — or, when the
 * text has an escape and `JSON.parse`'s value is not what the text says
 * (checked with {@link decodeValidJson}), what the text says.
 *
 * @param actual - the parser's value.
 * @param text - the text, which `JSON.parse` accepted.
 * @param parsed - `JSON.parse(text)`.
 */
export function expectSameAsJsonParse(actual: unknown, text: string, parsed: unknown): void {
  if (!isSameJson(actual, parsed) && text.includes("\\")) {
    const decoded = decodeValidJson(text);
    if (!isSameJson(parsed, decoded)) {
      expectSameJson(actual, decoded);
      return;
    }
  }
  expectSameJson(actual, parsed);
}

/**
 * Whether a value is what `JSON.parse` gave for a text, with the same
 * allowance as {@link expectSameAsJsonParse}.
 *
 * @param actual - the parser's value.
 * @param text - the text, which `JSON.parse` accepted.
 * @param parsed - `JSON.parse(text)`.
 * @returns the check.
 */
export function isSameAsJsonParse(actual: unknown, text: string, parsed: unknown): boolean {
  if (isSameJson(actual, parsed)) return true;
  if (!text.includes("\\")) return false;
  const decoded = decodeValidJson(text);
  return !isSameJson(parsed, decoded) && isSameJson(actual, decoded);
}
