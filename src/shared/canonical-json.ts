/**
 * A canonical JSON text for cache keys.
 *
 * @module
 */

/**
 * Serializes a JSON value with object keys sorted at every depth, so equal
 * values give equal text whatever order their keys were written in. As with
 * `JSON.stringify`, `undefined` and functions are left out of objects and
 * become `null` in arrays; non-finite numbers become `null`.
 *
 * @param value - a JSON value.
 * @returns its canonical text.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, { d: 2, c: 3 }] }); // '{"a":[true,{"c":3,"d":2}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "bigint") return JSON.stringify(value.toString());
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const maybeJson = value as { toJSON?: () => unknown };
  if (typeof maybeJson.toJSON === "function") return canonicalJson(maybeJson.toJSON());
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
  }
  return `{${parts.join(",")}}`;
}
