/**
 * A structural check of JSON Schemas, so that a mistyped tool schema is
 * refused when the tool is registered, not reported as a confusing argument
 * error on every call.
 *
 * @module
 */
import { escapePointerSegment } from "../plan/find-references.ts";
import { isRecord } from "../shared/is-record.ts";
import {
  BOUND_KEYWORDS,
  COUNT_KEYWORDS,
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SUBSCHEMA_KEYWORDS,
} from "./schema-keywords.ts";

const TYPES: readonly unknown[] = ["array", "boolean", "integer", "null", "number", "object", "string"];

/** The keywords whose value has one shape, in the order they are checked: what the value must be, and the check. */
const SHAPES: [keywords: readonly string[], expected: string, test: (value: unknown) => boolean][] = [
  [
    ["type"],
    `one of ${TYPES.map((name) => JSON.stringify(name)).join(", ")} (or a list of them)`,
    (type) => [type].flat().length > 0 && [type].flat().every((name) => TYPES.includes(name)),
  ],
  // draft-03's `required: true` on a property is tolerated (later drafts ignore it).
  [
    ["required"],
    "a list of property names",
    (value) => typeof value === "boolean" || (Array.isArray(value) && value.every((name) => typeof name === "string")),
  ],
  [["enum"], "a list of values", Array.isArray],
  [COUNT_KEYWORDS, "an integer >= 0", (value) => Number.isInteger(value) && (value as number) >= 0],
  // draft-04's boolean exclusiveMinimum / exclusiveMaximum are tolerated.
  [BOUND_KEYWORDS, "a number", (value) => typeof value === "number" || typeof value === "boolean"],
  [["multipleOf"], "a number > 0", (value) => typeof value === "number" && value > 0],
  [["pattern"], "a string", (value) => typeof value === "string"],
];

/** The keywords whose value holds subschemas, in the order they are walked. */
const APPLICATORS = [...SUBSCHEMA_KEYWORDS, "items", ...SCHEMA_MAP_KEYWORDS, ...SCHEMA_LIST_KEYWORDS];

/**
 * Finds the first structural problem in a JSON Schema (draft-07 or
 * 2020-12): a `type` that names no JSON type, `properties` that are not
 * schemas, a `required` that is not a list of names, a `pattern` that is not
 * a regular expression, and the like. Unknown keywords are allowed.
 *
 * @param schema - the schema.
 * @param path - the JSON pointer of `schema` (for the message).
 * @returns `undefined` when the schema is sound, else a sentence naming the
 *   pointer, what was expected and the value found.
 *
 * @example
 * ```ts
 * findSchemaProblem({ type: "object", properties: { x: { type: "strin" } } });
 * // '/properties/x/type must be one of "array", "boolean", …, got "strin"'
 * ```
 */
export function findSchemaProblem(schema: unknown, path = ""): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (!isRecord(schema))
    return `${path || "the schema"} must be a schema object or a boolean, got ${JSON.stringify(schema) ?? String(schema)}`;
  const got = (key: string): string => JSON.stringify(schema[key]) ?? String(schema[key]);
  for (const [keywords, expected, test] of SHAPES)
    for (const key of keywords)
      if (schema[key] !== undefined && !test(schema[key])) return `${path}/${key} must be ${expected}, got ${got(key)}`;
  const pattern = schema["pattern"];
  if (typeof pattern === "string") {
    // As the validator reads it: with the Unicode flag, else without (`\-` outside a class is valid only without).
    const compiles = (flags: string): boolean => {
      try {
        return new RegExp(pattern, flags) !== undefined;
      } catch {
        return false;
      }
    };
    if (!compiles("u") && !compiles(""))
      return `${path}/pattern is not a valid regular expression: ${JSON.stringify(pattern)}`;
  }
  for (const key of APPLICATORS) {
    const value = schema[key];
    if (value === undefined) continue;
    const map = SCHEMA_MAP_KEYWORDS.includes(key);
    const list = SCHEMA_LIST_KEYWORDS.includes(key);
    if (map && !isRecord(value)) return `${path}/${key} must be an object of schemas, got ${got(key)}`;
    if (list && !(Array.isArray(value) && value.length > 0))
      return `${path}/${key} must be a non-empty list of schemas, got ${got(key)}`;
    const at = `${path}/${key}`;
    // A map's or a list's members are schemas (`items` is one schema or a list of them); any other value is one.
    const members: [string, unknown][] = map
      ? Object.entries(value as Record<string, unknown>).map(([name, member]) => [
          `${at}/${escapePointerSegment(name)}`,
          member,
        ])
      : list || (key === "items" && Array.isArray(value))
        ? Array.from(value as unknown[], (member, index) => [`${at}/${index}`, member])
        : [[at, value]];
    for (const [pointer, member] of members) {
      const problem = findSchemaProblem(member, pointer);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
