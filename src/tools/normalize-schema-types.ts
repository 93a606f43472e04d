/**
 * Reading the type names of Python-, Java- or JavaScript-flavoured tool
 * catalogs as JSON Schema's.
 *
 * @module
 */
import { mapSchemaNodes } from "./map-schema-nodes.ts";
import { readTypeName } from "./read-type-name.ts";

/**
 * Rewrites the `type` of one schema object.
 *
 * @param node - a schema object.
 * @returns the node, or a copy with JSON Schema type names.
 */
function renameType(node: Record<string, unknown>): Record<string, unknown> {
  const type = node["type"];
  if (typeof type === "string") {
    const fragment = readTypeName(type);
    if (fragment === undefined || (fragment["type"] === type && fragment["items"] === undefined)) return node;
    const { type: _type, ...rest } = node;
    const copy: Record<string, unknown> = fragment["type"] === undefined ? rest : { ...node, type: fragment["type"] };
    if (fragment["items"] !== undefined && node["items"] === undefined && node["prefixItems"] === undefined)
      copy["items"] = fragment["items"];
    return copy;
  }
  if (!Array.isArray(type)) return node;
  const names: unknown[] = [];
  for (const name of type) {
    const fragment = typeof name === "string" ? readTypeName(name) : undefined;
    if (fragment === undefined) names.push(name);
    else if (fragment["type"] === undefined) {
      const { type: _type, ...rest } = node;
      return rest;
    } else names.push(...(Array.isArray(fragment["type"]) ? fragment["type"] : [fragment["type"]]));
  }
  const unique = [...new Set(names)];
  return unique.length === type.length && unique.every((name, index) => name === type[index])
    ? node
    : { ...node, type: unique };
}

/**
 * Rewrites the type names some tool catalogs use instead of JSON Schema's
 * at every depth of a schema: Python's (`dict`, `list`, `tuple`, `float`,
 * `int`, `str`, `bool`, `any`, as in Python-based function-calling data
 * sets), Java's and JavaScript's (`String`, `HashMap`, `ArrayList`, `long`,
 * `char`, `Bigint`, …), in any letter case, and generic forms such as
 * `List[str]` or `List<String>` (an array with `items`). `any` drops the
 * `type` constraint. Names it does not know stay as they are, so that
 * `findSchemaProblem` can name them; nothing else changes, and a
 * schema without such names is returned as it is (the same object).
 *
 * @param schema - a JSON Schema, perhaps with such type names.
 * @returns the schema with JSON Schema type names.
 *
 * @example
 * ```ts
 * normalizeSchemaTypes({ type: "dict", properties: { n: { type: "float" }, tags: { type: "List[str]" } } });
 * // { type: "object", properties: { n: { type: "number" }, tags: { type: "array", items: { type: "string" } } } }
 * ```
 */
export function normalizeSchemaTypes<T>(schema: T): T {
  return mapSchemaNodes(schema, renameType);
}
