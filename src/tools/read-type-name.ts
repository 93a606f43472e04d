/**
 * Reading the type names tool catalogs write in other languages' words.
 *
 * @module
 */
import type { JsonSchema } from "./tool-descriptor.ts";

/** Lowercased type names and the JSON Schema type each means; `null` means any value. */
const TYPE_NAMES: Readonly<Record<string, string | null>> = {
  string: "string",
  str: "string",
  char: "string",
  character: "string",
  integer: "integer",
  int: "integer",
  long: "integer",
  short: "integer",
  byte: "integer",
  bigint: "integer",
  int32: "integer",
  int64: "integer",
  number: "number",
  float: "number",
  double: "number",
  decimal: "number",
  float32: "number",
  float64: "number",
  boolean: "boolean",
  bool: "boolean",
  array: "array",
  list: "array",
  tuple: "array",
  set: "array",
  sequence: "array",
  arraylist: "array",
  queue: "array",
  stack: "array",
  object: "object",
  dict: "object",
  map: "object",
  hashmap: "object",
  hashtable: "object",
  mapping: "object",
  record: "object",
  null: "null",
  none: "null",
  nonetype: "null",
  any: null,
};

/** `Name[Args]` or `Name<Args>`. */
const GENERIC = /^([A-Za-z_][\w.]*)\s*[[<](.*)[\]>]$/su;

/**
 * Splits generic arguments at top-level commas (`str, List[int]` gives two).
 *
 * @param text - the text between the brackets.
 * @returns the arguments, trimmed.
 */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === "[" || character === "<") depth++;
    else if (character === "]" || character === ">") depth--;
    else if (character === "," && depth === 0) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/**
 * Reads a type name as a JSON Schema fragment. Beyond JSON Schema's own
 * names it knows those of Python (`str`, `int`, `float`, `dict`, `list`,
 * `tuple`, `bool`, `None`, `Any`), Java and JavaScript (`String`, `Integer`,
 * `long`, `char`, `HashMap`, `ArrayList`, `Bigint`, …) in any letter case,
 * and their generic forms: `List[str]` and `List<String>` and `string[]`
 * become arrays with `items` (without, when the element type is unknown), `Dict[str, int]` an object, `Optional[int]`
 * its argument, `Union[int, str]` and `int | str` a list of types.
 *
 * @param name - the type name as written.
 * @returns the fragment (`{}` for "any value"), or `undefined` for a name it
 *   does not know.
 *
 * @example
 * ```ts
 * readTypeName("List[str]"); // { type: "array", items: { type: "string" } }
 * readTypeName("HashMap"); // { type: "object" }
 * readTypeName("file"); // undefined
 * ```
 */
export function readTypeName(name: string): JsonSchema | undefined {
  const text = name.trim();
  const lower = text.toLowerCase();
  if (Object.hasOwn(TYPE_NAMES, lower)) {
    const type = TYPE_NAMES[lower];
    return type === null || type === undefined ? {} : { type };
  }
  if (text.endsWith("[]") && text.length > 2) return arrayOf(text.slice(0, -2));
  const union = splitArguments(text.replace(/\s*\|\s*/gu, ","));
  if (union.length > 1 && text.includes("|") && !GENERIC.test(text)) return readUnion(union);
  const generic = GENERIC.exec(text);
  if (generic === null) return undefined;
  const outer = (generic[1] ?? "").toLowerCase().replace(/^typing\./u, "");
  const args = splitArguments(generic[2] ?? "");
  if (outer === "optional" && args.length === 1) return readTypeName(args[0] ?? "");
  if (outer === "union") return readUnion(args);
  const base = TYPE_NAMES[outer];
  if (base === "object") return { type: "object" };
  if (base !== "array") return undefined;
  return outer === "tuple" || args.length !== 1 ? { type: "array" } : arrayOf(args[0] ?? "");
}

/**
 * An array of the named type; with `items` only when the name is known and
 * constrains something (`List[file]` is still an array).
 *
 * @param name - the element type name.
 * @returns the fragment.
 */
function arrayOf(name: string): JsonSchema {
  const items = readTypeName(name);
  return items === undefined || Object.keys(items).length === 0 ? { type: "array" } : { type: "array", items };
}

/**
 * Reads the members of a union.
 *
 * @param members - the member type names.
 * @returns a fragment with a list of types, `{}` when a member is any
 *   value or not a plain type, or `undefined` when a member is unknown.
 */
function readUnion(members: readonly string[]): JsonSchema | undefined {
  const types = new Set<string>();
  for (const member of members) {
    const fragment = readTypeName(member);
    if (fragment === undefined) return undefined;
    if (typeof fragment["type"] !== "string") return {};
    types.add(fragment["type"]);
  }
  return types.size === 1 ? { type: [...types][0] } : { type: [...types] };
}
