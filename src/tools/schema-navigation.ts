/**
 * Small helpers for walking JSON Schemas: drafts, local `$ref`s, pointers.
 *
 * @module
 */
import { isRecord } from "../shared/is-record.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** The JSON Schema drafts told apart (draft-06 reads as draft-07). */
export type SchemaDraft = "4" | "7" | "2019-09" | "2020-12";

/**
 * Picks the draft from a schema's `$schema` URI; 2020-12 when absent.
 *
 * @param schema - a root schema.
 * @returns the draft.
 */
export function schemaDraft(schema: JsonSchema): SchemaDraft {
  const uri = typeof schema["$schema"] === "string" ? schema["$schema"] : "";
  if (/draft-0[67]/u.test(uri)) return "7";
  if (/draft-0[34]/u.test(uri)) return "4";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/**
 * Splits a JSON Pointer in a URI fragment (with or without its `#`) into decoded segments.
 *
 * @param pointer - e.g. `#/properties/a~1b`.
 * @returns e.g. `["properties", "a/b"]`.
 */
export function splitPointer(pointer: string): string[] {
  return splitJsonPointer(pointer.startsWith("#") ? pointer.slice(1) : pointer, decodeURIComponent);
}

/**
 * Splits a plain JSON Pointer (not URI-encoded) into its unescaped segments.
 *
 * @param pointer - e.g. `/a~1b/0`.
 * @param decode - applied to each segment before it is unescaped (percent-decoding, for a URI fragment).
 * @returns e.g. `["a/b", "0"]`; `[]` for `""`.
 */
export function splitJsonPointer(pointer: string, decode = (segment: string): string => segment): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((segment) => decode(segment).replaceAll("~1", "/").replaceAll("~0", "~"));
}

/**
 * Whether a value is a schema object: a non-array object (the record guard, under a name that reads as schemas do).
 *
 * @param value - anything.
 * @returns the check.
 */
export const isSchemaObject: (value: unknown) => value is JsonSchema = isRecord;

/**
 * Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, or a
 * `$anchor` / `$id` fragment inside the same document).
 *
 * @param root - the root schema.
 * @param ref - the reference.
 * @returns the target schema, or `undefined` for remote or broken references.
 */
export function resolveSchemaRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (ref.startsWith("#/")) {
    let node: unknown = root;
    for (const segment of splitPointer(ref)) {
      if (!isSchemaObject(node) && !Array.isArray(node)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
    return node;
  }
  if (ref.startsWith("#")) {
    const anchor = ref.slice(1);
    let found: unknown;
    const visit = (node: unknown): void => {
      if (found !== undefined || typeof node !== "object" || node === null) return;
      if (isSchemaObject(node) && (node["$anchor"] === anchor || node["$id"] === ref)) found = node;
      for (const child of Object.values(node)) visit(child);
    };
    visit(root);
    return found;
  }
  return undefined;
}

/**
 * Finds the schema object holding the keyword a validation error points at
 * (its `keywordLocation`), following `$ref` segments.
 *
 * @param root - the root schema.
 * @param keywordLocation - a plain JSON Pointer, e.g. `/properties/addr/$ref/properties/zip/pattern`.
 * @returns the schema holding the last segment, or `undefined`.
 */
export function schemaHoldingKeyword(root: JsonSchema, keywordLocation: string): JsonSchema | undefined {
  const segments = splitJsonPointer(keywordLocation);
  let node: unknown = root;
  for (const segment of segments.slice(0, -1)) {
    if (segment === "$ref" && isSchemaObject(node) && typeof node["$ref"] === "string") {
      node = resolveSchemaRef(root, node["$ref"]);
    } else if (isSchemaObject(node) || Array.isArray(node)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return isSchemaObject(node) ? node : undefined;
}

/**
 * The top-level parameter names of an input schema, in declaration order
 * (following a root `$ref`).
 *
 * @param schema - an input schema.
 * @returns the property names.
 */
export function parameterNames(schema: JsonSchema): string[] {
  let node: unknown = schema;
  for (
    let depth = 0;
    depth < 8 && isSchemaObject(node) && typeof node["$ref"] === "string" && !isSchemaObject(node["properties"]);
    depth++
  ) {
    node = resolveSchemaRef(schema, node["$ref"]);
  }
  return isSchemaObject(node) && isSchemaObject(node["properties"]) ? Object.keys(node["properties"]) : [];
}
