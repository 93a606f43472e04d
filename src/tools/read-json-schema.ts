/**
 * Taking a tool's schema as a JSON Schema, and saying so when it is a
 * data set's parameter list or map instead.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import {
  BOUND_KEYWORDS,
  COUNT_KEYWORDS,
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SUBSCHEMA_KEYWORDS,
} from "./schema-keywords.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** JSON Schema keywords (draft-07 and 2020-12): a schema object has at least one of them unless it is empty. */
const KEYWORDS = new Set([
  ...SUBSCHEMA_KEYWORDS,
  ...SCHEMA_MAP_KEYWORDS,
  ...SCHEMA_LIST_KEYWORDS,
  ...COUNT_KEYWORDS,
  ...BOUND_KEYWORDS,
  "type",
  "required",
  "dependentRequired",
  "dependencies",
  "items",
  "uniqueItems",
  "enum",
  "const",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "$schema",
  "$id",
  "$anchor",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "format",
  "pattern",
  "multipleOf",
  "readOnly",
  "writeOnly",
  "deprecated",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "nullable",
]);

/** Where data-set shapes are read, for messages that refuse them. */
export const READ_ELSEWHERE =
  "read function-calling data sets' parameter lists and maps with normalizeCatalog or readToolSchema from plankit/tools";

/**
 * Takes a tool's input or output schema as a JSON Schema object. Its
 * structure is checked later, with the whole descriptor.
 *
 * @param value - the schema.
 * @param what - what it is, for messages (`Tool "search" ([2]) input`).
 * @returns the schema, unchanged.
 * @throws PlankitError `invalid-catalog` for anything but an object, and for
 *   a non-empty object with no JSON Schema keyword (a data set's map of
 *   parameters, say), naming the keys found.
 *
 * @example
 * ```ts
 * readJsonSchema({ city: { type: "str" } }, 'Tool "weather" input');
 * // throws: Tool "weather" input schema has no JSON Schema keyword (keys: city); read function-calling …
 * ```
 */
export function readJsonSchema(value: unknown, what: string): JsonSchema {
  if (Array.isArray(value))
    throw new PlankitError(
      "invalid-catalog",
      `${what} schema must be a JSON Schema object, got a list of ${value.length} item(s); ${READ_ELSEWHERE}`,
    );
  if (!isRecord(value))
    throw new PlankitError(
      "invalid-catalog",
      `${what} schema must be a JSON Schema object, got ${describeValue(value)}`,
    );
  const keys = Object.keys(value);
  if (keys.length > 0 && !keys.some((key) => KEYWORDS.has(key) || key.startsWith("x-"))) {
    throw new PlankitError(
      "invalid-catalog",
      `${what} schema has no JSON Schema keyword (keys: ${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", …" : ""}); ${READ_ELSEWHERE}`,
    );
  }
  return value;
}
