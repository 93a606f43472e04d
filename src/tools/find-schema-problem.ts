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

const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

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
  const type = schema["type"];
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (names.length === 0 || names.some((name) => typeof name !== "string" || !TYPES.has(name))) {
      return `${path}/type must be one of ${[...TYPES].map((name) => JSON.stringify(name)).join(", ")} (or a list of them), got ${got("type")}`;
    }
  }
  const required = schema["required"];
  // draft-03's `required: true` on a property is tolerated (later drafts ignore it).
  if (
    required !== undefined &&
    typeof required !== "boolean" &&
    !(Array.isArray(required) && required.every((name) => typeof name === "string"))
  ) {
    return `${path}/required must be a list of property names, got ${got("required")}`;
  }
  if (schema["enum"] !== undefined && !Array.isArray(schema["enum"]))
    return `${path}/enum must be a list of values, got ${got("enum")}`;
  for (const key of COUNT_KEYWORDS) {
    const value = schema[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0))
      return `${path}/${key} must be an integer >= 0, got ${got(key)}`;
  }
  for (const key of BOUND_KEYWORDS) {
    const value = schema[key];
    // draft-04's boolean exclusiveMinimum / exclusiveMaximum are tolerated.
    if (value !== undefined && typeof value !== "number" && typeof value !== "boolean")
      return `${path}/${key} must be a number, got ${got(key)}`;
  }
  const multipleOf = schema["multipleOf"];
  if (multipleOf !== undefined && !(typeof multipleOf === "number" && multipleOf > 0))
    return `${path}/multipleOf must be a number > 0, got ${got("multipleOf")}`;
  const pattern = schema["pattern"];
  if (pattern !== undefined) {
    if (typeof pattern !== "string") return `${path}/pattern must be a string, got ${got("pattern")}`;
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
  for (const key of SUBSCHEMA_KEYWORDS) {
    if (schema[key] === undefined) continue;
    const problem = findSchemaProblem(schema[key], `${path}/${key}`);
    if (problem !== undefined) return problem;
  }
  const items = schema["items"];
  if (items !== undefined) {
    const list = Array.isArray(items) ? items : [items];
    for (let index = 0; index < list.length; index++) {
      const problem = findSchemaProblem(list[index], Array.isArray(items) ? `${path}/items/${index}` : `${path}/items`);
      if (problem !== undefined) return problem;
    }
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isRecord(map)) return `${path}/${key} must be an object of schemas, got ${got(key)}`;
    for (const [name, child] of Object.entries(map)) {
      const problem = findSchemaProblem(child, `${path}/${key}/${escapePointerSegment(name)}`);
      if (problem !== undefined) return problem;
    }
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0)
      return `${path}/${key} must be a non-empty list of schemas, got ${got(key)}`;
    for (let index = 0; index < list.length; index++) {
      const problem = findSchemaProblem(list[index], `${path}/${key}/${index}`);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
