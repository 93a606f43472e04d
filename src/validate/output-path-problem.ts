/**
 * Checking a reference path against a tool's declared output schema.
 *
 * @module
 */
import { isSchemaObject, resolveSchemaRef } from "../tools/schema-navigation.ts";
import type { JsonSchema } from "../tools/tool-descriptor.ts";

/** Why a path is not declared by an output schema. */
export interface OutputPathProblem {
  /** How many leading segments exist. */
  depth: number;
  /** The property names declared where the path stops (empty for non-objects). */
  available: string[];
}

/** Types whose values take no path segment (an array takes only indexes, read before). */
const leafTypes = new Set(["string", "number", "integer", "boolean", "null", "array"]);

/**
 * Checks that a path exists in an output schema. A path may continue below
 * any node the schema leaves open (no `properties`, `additionalProperties`
 * or `items` given); it stops being declared where an object lists its
 * `properties` without the segment (and without `patternProperties` or
 * `additionalProperties` admitting it), where an array is indexed with a
 * non-number, or where a primitive is indexed at all. `$ref` (local),
 * `allOf`, `anyOf` and `oneOf` are followed; one matching branch suffices.
 *
 * @param root - the output schema.
 * @param path - the reference path (`["items", "0", "title"]`).
 * @returns `undefined` when declared, otherwise where it stops.
 *
 * @example
 * ```ts
 * outputPathProblem({ type: "object", properties: { value: { type: "number" } } }, ["valu"]);
 * // { depth: 0, available: ["value"] }
 * ```
 */
export function outputPathProblem(root: JsonSchema, path: readonly string[]): OutputPathProblem | undefined {
  const walk = (node: unknown, depth: number, guard: number): OutputPathProblem | undefined => {
    if (depth >= path.length || guard > 32 || !isSchemaObject(node)) return undefined;
    if (typeof node["$ref"] === "string") return walk(resolveSchemaRef(root, node["$ref"]), depth, guard + 1);
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      const branches = node[keyword];
      if (Array.isArray(branches) && branches.length > 0) {
        const problems = branches.map((branch: unknown) => walk(branch, depth, guard + 1));
        if (problems.some((problem) => problem === undefined)) return undefined;
        return problems.reduce((deepest, problem) =>
          (problem?.depth ?? -1) > (deepest?.depth ?? -1) ? problem : deepest,
        );
      }
    }
    const segment = path[depth] ?? "";
    const properties = isSchemaObject(node["properties"]) ? node["properties"] : undefined;
    if (properties !== undefined && Object.hasOwn(properties, segment))
      return walk(properties[segment], depth + 1, guard);
    const patterns = isSchemaObject(node["patternProperties"]) ? node["patternProperties"] : undefined;
    if (patterns !== undefined) {
      for (const [pattern, schema] of Object.entries(patterns)) {
        try {
          if (new RegExp(pattern, "u").test(segment)) return walk(schema, depth + 1, guard);
        } catch {
          return undefined;
        }
      }
    }
    const additional = node["additionalProperties"];
    if (isSchemaObject(additional)) return walk(additional, depth + 1, guard);
    if (additional === true) return undefined;
    const types = Array.isArray(node["type"]) ? node["type"] : typeof node["type"] === "string" ? [node["type"]] : [];
    const items = node["items"];
    const prefixItems = node["prefixItems"];
    if (/^\d+$/u.test(segment) && (types.includes("array") || items !== undefined || prefixItems !== undefined)) {
      const index = Number(segment);
      const item =
        Array.isArray(prefixItems) && index < prefixItems.length
          ? prefixItems[index]
          : !Array.isArray(items)
            ? items
            : index < items.length
              ? items[index]
              : node["additionalItems"];
      return walk(item, depth + 1, guard);
    }
    if (properties !== undefined || additional === false)
      return { depth, available: properties === undefined ? [] : Object.keys(properties) };
    if (types.length > 0 && types.every((type) => leafTypes.has(String(type)))) return { depth, available: [] };
    return undefined;
  };
  return walk(root, 0, 0);
}
