/**
 * Reading a tool's parameters in the shapes catalogs and data sets write
 * them, as one JSON Schema.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import { mapSchemaNodes } from "./map-schema-nodes.ts";
import { normalizeSchemaTypes } from "./normalize-schema-types.ts";
import { readTypeName } from "./read-type-name.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** Keywords of an object schema whose value is an object. */
const OBJECT_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "propertyNames",
  "unevaluatedProperties",
  "items",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
]);
/** Those of them that map names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a string. */
const STRING_KEYWORDS = new Set([
  "type",
  "description",
  "title",
  "format",
  "pattern",
  "$ref",
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "contentMediaType",
  "contentEncoding",
]);

/**
 * Whether a key and its value read as a JSON Schema keyword: a known
 * keyword with a value of its shape (`properties` holding schemas, `type`
 * holding a name).
 *
 * @param key - the key.
 * @param value - its value (an object or a string).
 * @returns the check.
 */
function isKeyword(key: string, value: unknown): boolean {
  if (typeof value === "string") return STRING_KEYWORDS.has(key);
  if (!OBJECT_KEYWORDS.has(key)) return false;
  return (
    !SCHEMA_MAPS.has(key) ||
    Object.values(value as Record<string, unknown>).every((child) => isRecord(child) || typeof child === "boolean")
  );
}

/**
 * Whether an object is a map from parameter names to their descriptions
 * rather than a JSON Schema. Each value is a description object
 * (`{ city: { type: "str", required: true } }`) or a string, read as a type
 * name or else as a description (`{ city: "str", when: "The day" }`); it
 * has no `type` naming a type, no schemas under `properties` and no `$ref`; and
 * not every key is a schema keyword with a value of its shape — so a
 * parameter named `type` or `properties` is still read as a parameter.
 *
 * @param value - a non-array object.
 * @returns the check.
 */
function isParameterMap(value: Record<string, unknown>): boolean {
  const entries = Object.entries(value);
  if (entries.length === 0 || !entries.every(([, item]) => isRecord(item) || typeof item === "string")) return false;
  // A type name, schemas under `properties` or a `$ref` make it a schema, whatever else it holds (`example`, say).
  const type = value["type"];
  if (typeof type === "string" && readTypeName(type) !== undefined) return false;
  if (isRecord(value["properties"]) && isKeyword("properties", value["properties"])) return false;
  if (typeof value["$ref"] === "string") return false;
  return !entries.every(([key, item]) => isKeyword(key, item));
}

/**
 * Reads a parameter given as a string: a type name, or else its description.
 *
 * @param text - the string.
 * @returns the parameter description.
 */
function fromText(text: string): Record<string, unknown> {
  return readTypeName(text) === undefined ? { description: text } : { type: text };
}

/**
 * Reads one parameter description of a map or list: `desc` is its
 * `description`, `allowed_values` its `enum`, an OpenAPI parameter's
 * `schema` gives its type (its `in` is dropped), a boolean `required` (or
 * `optional`) says whether the parameter is required, and a type name
 * JSON Schema does not know is dropped and kept in the description for
 * the model to read. Nested `properties` and `items` are read the same way.
 *
 * @param raw - the description.
 * @returns the property schema, and whether the parameter is required.
 */
function readParameter(raw: Record<string, unknown>): { schema: JsonSchema; required: boolean } {
  const {
    required,
    optional,
    desc,
    allowed_values: allowed,
    name: _name,
    in: _location,
    schema: nested,
    ...rest
  } = raw;
  // An OpenAPI parameter keeps its type under `schema`.
  const schema: Record<string, unknown> = isRecord(nested) ? { ...nested, ...rest } : rest;
  if (Array.isArray(required)) schema["required"] = required;
  if (schema["description"] === undefined && typeof desc === "string") schema["description"] = desc;
  if (schema["enum"] === undefined && Array.isArray(allowed)) schema["enum"] = allowed;
  const type = schema["type"];
  if (typeof type === "string") {
    const fragment = readTypeName(type);
    delete schema["type"];
    if (fragment === undefined) {
      const description = schema["description"];
      schema["description"] =
        typeof description === "string" && description !== "" ? `${description} (type: ${type})` : `type: ${type}`;
    } else {
      if (fragment["type"] !== undefined) schema["type"] = fragment["type"];
      if (fragment["items"] !== undefined && schema["items"] === undefined) schema["items"] = fragment["items"];
    }
  }
  const properties = schema["properties"];
  if (isRecord(properties) && isParameterMap(properties)) {
    const nested = readParameterMap(properties);
    schema["properties"] = nested["properties"];
    const names = [
      ...(Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : []),
      ...((nested["required"] as string[] | undefined) ?? []),
    ];
    if (names.length > 0) schema["required"] = [...new Set(names)];
  }
  if (isRecord(schema["items"])) schema["items"] = readParameter(schema["items"]).schema;
  return { schema, required: required === true || optional === false };
}

/**
 * Builds the object schema of named parameters.
 *
 * @param parameters - name and description of each parameter, in order.
 * @returns `{ type: "object", properties, required? }`.
 */
function toObjectSchema(parameters: readonly (readonly [string, Record<string, unknown>])[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, raw] of parameters) {
    const parameter = readParameter(raw);
    Object.defineProperty(properties, name, {
      value: parameter.schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (parameter.required && !required.includes(name)) required.push(name);
  }
  return required.length === 0 ? { type: "object", properties } : { type: "object", properties, required };
}

/**
 * Reads a map of parameter descriptions.
 *
 * @param map - parameter name → description.
 * @returns the object schema.
 */
function readParameterMap(map: Record<string, unknown>): JsonSchema {
  return toObjectSchema(
    Object.entries(map).map(([name, item]): [string, Record<string, unknown>] => [
      name,
      typeof item === "string" ? fromText(item) : (item as Record<string, unknown>),
    ]),
  );
}

/**
 * Moves draft-03's `required: true` on a property into its parent's
 * `required` list (later drafts ignore the flag, so the requirement would
 * be lost), and drops `required: false`.
 *
 * @param node - a schema object.
 * @returns the node, or a copy with the flags lifted.
 */
function liftRequiredFlags(node: Record<string, unknown>): Record<string, unknown> {
  const properties = node["properties"];
  if (!isRecord(properties)) return node;
  let changed: Record<string, unknown> | undefined;
  const names: string[] = [];
  for (const [name, child] of Object.entries(properties)) {
    if (!isRecord(child) || typeof child["required"] !== "boolean") continue;
    const { required, ...rest } = child;
    changed ??= { ...properties };
    Object.defineProperty(changed, name, { value: rest, enumerable: true, writable: true, configurable: true });
    if (required) names.push(name);
  }
  if (changed === undefined) return node;
  const copy: Record<string, unknown> = { ...node, properties: changed };
  const all = [...new Set([...(Array.isArray(node["required"]) ? (node["required"] as unknown[]) : []), ...names])];
  if (all.length > 0) copy["required"] = all;
  return copy;
}

/**
 * Reads a tool's input or output schema in any shape tool catalogs and
 * function-calling data sets write it, as a JSON Schema:
 *
 * - a JSON Schema object, with other languages' type names read as JSON
 *   Schema's (see {@link normalizeSchemaTypes}) and draft-03's
 *   `required: true` on a property moved into the parent's `required`;
 * - a map from parameter names to descriptions, each with a `type`, a
 *   `description` (or `desc`) and a boolean `required`, as in NESTFUL and
 *   API-Bank (`query_parameters`, `output_parameters`), or a string: a type
 *   name (`{ expression: "str" }`) or else a description;
 * - a list of parameters, each with a `name`, as in TaskBench, ToolBench and
 *   OpenAPI operations (`{ name, in, required, schema }`), or just the names.
 *
 * In a map or a list, a type name that is not a JSON Schema type nor one of
 * the known aliases (`"file"`, `"DATE (YYYY-MM-DD)"`) drops the type
 * constraint and is appended to the parameter's description, since such
 * catalogs describe parameters for people; in a JSON Schema it stays, to be
 * reported as malformed.
 *
 * @param value - the schema, map or list.
 * @param what - what it is, for messages (`Tool "search" ([2]) input`).
 * @returns the JSON Schema (the same object when nothing needed reading).
 * @throws PlankitError `invalid-catalog` for anything else, or a listed parameter without a name.
 *
 * @example
 * ```ts
 * readToolSchema({ city: { type: "str", required: true }, days: { type: "int" } }, "input");
 * // { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] }
 * ```
 */
export function readToolSchema(value: unknown, what: string): JsonSchema {
  let schema: JsonSchema;
  if (Array.isArray(value)) {
    schema = toObjectSchema(
      value.map((item: unknown, index: number): [string, Record<string, unknown>] => {
        if (typeof item === "string" && item !== "") return [item, {}];
        const name = isRecord(item) ? item["name"] : undefined;
        if (typeof name !== "string" || name === "") {
          throw new PlankitError(
            "invalid-catalog",
            `${what} parameter ${index + 1} needs a name, or an object with a non-empty string name, got ${describeValue(item)}`,
          );
        }
        return [name, item as Record<string, unknown>];
      }),
    );
  } else if (isRecord(value)) {
    schema = isParameterMap(value) ? readParameterMap(value) : value;
  } else {
    throw new PlankitError(
      "invalid-catalog",
      `${what} schema must be a JSON Schema object, a map of parameters or a list of parameters, got ${describeValue(value)}`,
    );
  }
  return mapSchemaNodes(normalizeSchemaTypes(schema), liftRequiredFlags);
}
