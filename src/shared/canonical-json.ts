/**
 * A canonical text for cache keys and for telling values apart.
 *
 * @module
 */

/**
 * Serializes a value with object keys sorted at every depth, so two values
 * give the same text exactly when they are deep-equal, whatever order their
 * keys were written in. Numbers are compared as `Object.is` compares them:
 * `-0` is written `-0` (still JSON), and `NaN`, `Infinity` and `-Infinity`,
 * which JSON cannot hold, are written as those bare words, so none of them
 * shares a key with `null` or `0` (a result cached for `{x: NaN}` is never
 * served for `{x: null}`). Everything else is written as by `JSON.stringify`:
 * `toJSON` is applied, `undefined`, functions and symbols are left out of
 * objects and become `null` in arrays, and a BigInt is written as its
 * decimal text in a string.
 *
 * @param value - a JSON value (the numbers above included).
 * @returns its canonical text: JSON unless it holds `NaN` or an infinity.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, { d: 2, c: 3 }] }); // '{"a":[true,{"c":3,"d":2}],"b":1}'
 * canonicalJson({ x: NaN }) === canonicalJson({ x: null }); // false
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    // -0, NaN and the infinities as their own words; a finite number's String is its JSON.
    if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
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
