/**
 * The schemas of a JSON Schema document and where their references lead.
 *
 * @module
 */
import { SCHEMA_MAP_KEYWORDS } from "./schema-keywords.ts";
import { isSchemaObject, schemaDraft, splitPointer } from "./schema-navigation.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** The keywords whose value maps names to schemas: draft-07's `dependencies` too (its lists of names hold no schema). */
const schemaMaps: ReadonlySet<string> = new Set([...SCHEMA_MAP_KEYWORDS, "dependencies"]);

/** The base URI of a document without `$id`: references resolve against it like any other. */
const documentBase = "https://schema.invalid/";

/**
 * Finds every schema object of a document (skipping `enum`, `const`,
 * `default` and `examples`, which hold data) and resolves its `$ref`,
 * `$dynamicRef` and `$recursiveRef` — the last two as plain references —
 * against the `$id`s, `$anchor`s and `$dynamicAnchor`s of the document
 * (draft-04's `id`, and `$id`s that are a bare `#name`, as anchors).
 *
 * @param schema - the root schema.
 * @returns each schema object with its references as `[keyword, target]` pairs.
 * @throws Error naming the keyword and reference when a reference resolves to no schema in the document.
 *
 * @example
 * ```ts
 * const schema = { $defs: { n: { type: "integer" } }, $ref: "#/$defs/n" };
 * indexSchemaDocument(schema).get(schema); // [["$ref", { type: "integer" }]]
 * ```
 */
export function indexSchemaDocument(schema: JsonSchema): Map<JsonSchema, [string, unknown][]> {
  const legacyIds = schemaDraft(schema) === "4";
  const resources = new Map<string, unknown>([[documentBase, schema]]);
  const bases = new Map<JsonSchema, string>();
  const visit = (node: unknown, base: string, map: boolean): void => {
    if (typeof node !== "object" || node === null) return;
    if (map || Array.isArray(node)) {
      for (const child of Object.values(node)) visit(child, base, false);
      return;
    }
    const record = node as JsonSchema;
    const id = record["$id"] ?? (legacyIds ? record["id"] : undefined);
    if (typeof id === "string") {
      if (!id.startsWith("#")) base = new URL(id, base).href.replace(/#.*/su, "");
      resources.set(id.startsWith("#") ? base + id : base, node);
    }
    for (const anchor of [record["$anchor"], record["$dynamicAnchor"]])
      if (typeof anchor === "string") resources.set(`${base}#${anchor}`, node);
    bases.set(record, base);
    for (const key in record)
      if (!/^(?:enum|const|default|examples)$/u.test(key))
        // The keys of these keywords are names, not keywords.
        visit(record[key], base, schemaMaps.has(key));
  };
  visit(schema, documentBase, false);

  const index = new Map<JsonSchema, [string, unknown][]>();
  for (const [node, base] of bases) {
    const references: [string, unknown][] = [];
    for (const keyword of ["$ref", "$dynamicRef", "$recursiveRef"]) {
      const ref = node[keyword];
      if (typeof ref !== "string") continue;
      let target: unknown;
      try {
        const url = new URL(ref, base);
        const fragment = url.hash;
        url.hash = "";
        const pointer = fragment.startsWith("#/");
        target = resources.get(url.href + (pointer ? "" : fragment));
        if (pointer)
          for (const segment of splitPointer(fragment))
            target = typeof target === "object" && target !== null ? (target as JsonSchema)[segment] : undefined;
      } catch {
        // Not a URI reference, or a pointer with a stray %: it resolves nowhere.
      }
      if (typeof target !== "boolean" && !isSchemaObject(target))
        throw new Error(`${keyword} ${JSON.stringify(ref)} resolves to no schema in the document`);
      references.push([keyword, target]);
    }
    index.set(node, references);
  }
  return index;
}
