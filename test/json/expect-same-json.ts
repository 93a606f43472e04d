import { expect } from "vitest";

/**
 * Whether two parsed JSON values are the same: same types, same own keys in the
 * same order, plain prototypes, and numbers equal by `Object.is` (so -0 ≠ 0).
 * Unlike `toStrictEqual`, keys such as "constructor" are compared as data.
 */
export function isSameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i]) return false;
    if (!isSameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Asserts {@link isSameJson}, showing both values on failure. */
export function expectSameJson(actual: unknown, expected: unknown): void {
  if (!isSameJson(actual, expected)) {
    expect(JSON.stringify(actual) ?? String(actual)).toBe(JSON.stringify(expected) ?? String(expected));
    throw new Error(`Values differ beyond their JSON text (-0, key order or prototypes): ${JSON.stringify(actual)}`);
  }
}

/** What `JSON.parse(JSON.stringify(value))` gives, computed without either: the oracle of property tests. */
export function toJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === "object" && value !== null) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(result, key, { value: toJsonValue((value as Record<string, unknown>)[key]), writable: true, enumerable: true, configurable: true });
    }
    return result;
  }
  return Object.is(value, -0) ? 0 : value;
}
