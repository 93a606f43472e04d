/**
 * Reading the type names of Python-flavoured tool catalogs as JSON Schema's.
 *
 * @module
 */

/** Type names seen in function-calling catalogs and data sets, and the JSON Schema type each means. */
const TYPE_ALIASES: Readonly<Record<string, string | null>> = {
  dict: "object",
  map: "object",
  list: "array",
  tuple: "array",
  set: "array",
  float: "number",
  double: "number",
  int: "integer",
  long: "integer",
  str: "string",
  bool: "boolean",
  none: "null",
  NoneType: "null",
  any: null,
  Any: null,
};

const SUBSCHEMA = ["additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "items"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Rewrites the type names some tool catalogs use instead of JSON Schema's —
 * `dict`, `list`, `tuple`, `float`, `int`, `str`, `bool`, `any` and the like,
 * as in Python-based function-calling data sets — at every depth of a
 * schema. `any` drops the `type` constraint. Nothing else changes; a schema
 * without such names is returned as it is (the same object).
 *
 * @param schema - a JSON Schema, perhaps with such type names.
 * @returns the schema with JSON Schema type names.
 *
 * @example
 * ```ts
 * normalizeSchemaTypes({ type: "dict", properties: { n: { type: "float" } } });
 * // { type: "object", properties: { n: { type: "number" } } }
 * ```
 */
export function normalizeSchemaTypes<T>(schema: T): T {
  if (!isObject(schema)) return schema;
  let copy: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown): void => {
    copy ??= { ...schema };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  };
  const type = schema["type"];
  if (typeof type === "string" && Object.hasOwn(TYPE_ALIASES, type)) {
    set("type", TYPE_ALIASES[type] ?? undefined);
  } else if (Array.isArray(type) && type.some((name) => typeof name === "string" && Object.hasOwn(TYPE_ALIASES, name))) {
    const names = type.map((name) => (typeof name === "string" && Object.hasOwn(TYPE_ALIASES, name) ? TYPE_ALIASES[name] : name));
    set("type", names.includes(null) ? undefined : [...new Set(names)]);
  }
  for (const key of SUBSCHEMA) {
    const child = schema[key];
    if (!isObject(child)) continue;
    const normalized = normalizeSchemaTypes(child);
    if (normalized !== child) set(key, normalized);
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isObject(map)) continue;
    let changed: Record<string, unknown> | undefined;
    for (const [name, child] of Object.entries(map)) {
      const normalized = normalizeSchemaTypes(child);
      if (normalized !== child) (changed ??= { ...map })[name] = normalized;
    }
    if (changed !== undefined) set(key, changed);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const normalized = list.map((child: unknown) => normalizeSchemaTypes(child));
    if (normalized.some((child, index) => child !== list[index])) set(key, normalized);
  }
  return (copy ?? schema) as T;
}
