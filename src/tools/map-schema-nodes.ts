/**
 * Rewriting every subschema of a JSON Schema, copying only what changes.
 *
 * @module
 */
import { isRecord } from "../shared/is-record.ts";
import { SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, SUBSCHEMA_KEYWORDS } from "./schema-keywords.ts";

/** Keywords whose value is one subschema. */
const SUBSCHEMA = [...SUBSCHEMA_KEYWORDS, "items"];
/** Keywords whose value lists subschemas (`items` too, in drafts before 2020-12). */
const SCHEMA_LISTS = [...SCHEMA_LIST_KEYWORDS, "items"];

/**
 * Applies `rewrite` to a schema and then, in what it returned, to every
 * subschema at every depth (under `properties`, `items`, `anyOf`, `$defs`
 * and the other applicator keywords). `rewrite` returns its argument when it
 * changes nothing; objects are copied only along the paths that change, so
 * a schema nothing applies to comes back as the same object, and the input
 * is never modified.
 *
 * @param schema - a JSON Schema (non-objects are returned as they are).
 * @param rewrite - the change to one schema object.
 * @returns the rewritten schema.
 *
 * @example
 * ```ts
 * const dropTitles = (node) => { const { title, ...rest } = node; return title === undefined ? node : rest; };
 * mapSchemaNodes({ title: "A", properties: { b: { title: "B" } } }, dropTitles); // { properties: { b: {} } }
 * ```
 */
export function mapSchemaNodes<T>(schema: T, rewrite: (node: Record<string, unknown>) => Record<string, unknown>): T {
  if (!isRecord(schema)) return schema;
  const node = rewrite(schema);
  let copy: Record<string, unknown> | undefined = node === schema ? undefined : node;
  const set = (key: string, value: unknown): void => {
    copy ??= { ...node };
    copy[key] = value;
  };
  for (const key of SUBSCHEMA) {
    const child = node[key];
    if (!isRecord(child)) continue;
    const mapped = mapSchemaNodes(child, rewrite);
    if (mapped !== child) set(key, mapped);
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const map = node[key];
    if (!isRecord(map)) continue;
    let changed: Record<string, unknown> | undefined;
    for (const [name, child] of Object.entries(map)) {
      const mapped = mapSchemaNodes(child, rewrite);
      if (mapped !== child) {
        changed ??= { ...map };
        Object.defineProperty(changed, name, { value: mapped, enumerable: true, writable: true, configurable: true });
      }
    }
    if (changed !== undefined) set(key, changed);
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const mapped = list.map((child: unknown) => mapSchemaNodes(child, rewrite));
    if (mapped.some((child, index) => child !== list[index])) set(key, mapped);
  }
  return (copy ?? node) as T;
}
