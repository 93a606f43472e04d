/**
 * Caches that make a value on first use.
 *
 * @module
 */

/**
 * The value a cache holds for a key, made and stored on first use.
 *
 * @param cache - a `Map` or `WeakMap`.
 * @param key - the key.
 * @param make - makes the value when the cache has none (a throw stores nothing).
 * @returns the cached value.
 *
 * @example
 * ```ts
 * const lengths = new Map<string, number>();
 * remember(lengths, "abc", () => 3); // 3, stored
 * ```
 */
export function remember<Key, Value>(
  cache: { get(key: Key): Value | undefined; set(key: Key, value: Value): unknown },
  key: Key,
  make: () => Value,
): Value {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}
