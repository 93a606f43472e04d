/**
 * The JSON Schema keywords (draft-07 and 2020-12) grouped by the shape of
 * their value, for the modules that walk or check schemas.
 *
 * @module
 */

/** Keywords whose value is one subschema (besides `items`, which may also be a list). */
export const SUBSCHEMA_KEYWORDS: readonly string[] = [
  "additionalProperties",
  "additionalItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
];
/** Keywords whose value maps names to subschemas. */
export const SCHEMA_MAP_KEYWORDS: readonly string[] = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
];
/** Keywords whose value lists subschemas (besides `items` in drafts before 2020-12). */
export const SCHEMA_LIST_KEYWORDS: readonly string[] = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value is a count (an integer >= 0). */
export const COUNT_KEYWORDS: readonly string[] = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
/** Keywords whose value is a bound (a number, or a boolean in draft-04's exclusive ones). */
export const BOUND_KEYWORDS: readonly string[] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
