/**
 * Compares two JSON values (as `JSON.parse` returns them) and says where they
 * first differ. Object keys must come in the same order, as `JSON.parse` keeps
 * them, and objects must be plain (`Object.prototype`) like `JSON.parse`'s.
 *
 * @param actual - the value to check.
 * @param expected - the reference value.
 * @param path - the JSON pointer of the values being compared.
 * @returns `undefined` when the values are equal, else a sentence naming the
 *   JSON pointer of the first difference and both values there.
 * @example
 * ```ts
 * findJsonDifference({ a: [1, 2] }, { a: [1, 3] }); // 'at /a/1: got 2, expected 3'
 * ```
 */
export function findJsonDifference(actual: unknown, expected: unknown, path = ""): string | undefined {
  const where = path === "" ? "the root" : path;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `at ${where}: got ${show(actual)}, expected an array`;
    if (actual.length !== expected.length)
      return `at ${where}: got an array of ${actual.length} items, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const difference = findJsonDifference(actual[i], expected[i], `${path}/${i}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual))
      return `at ${where}: got ${show(actual)}, expected an object`;
    if (Object.getPrototypeOf(actual) !== Object.prototype)
      return `at ${where}: got an object whose prototype is not Object.prototype`;
    const actualKeys = Object.keys(actual);
    const expectedKeys = Object.keys(expected);
    if (actualKeys.join("\u0000") !== expectedKeys.join("\u0000")) {
      return `at ${where}: got keys ${show(actualKeys)}, expected ${show(expectedKeys)}`;
    }
    for (const key of expectedKeys) {
      const child = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      const difference = findJsonDifference(
        (actual as Record<string, unknown>)[key],
        (expected as Record<string, unknown>)[key],
        child,
      );
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : `at ${where}: got ${show(actual)}, expected ${show(expected)}`;
}

function show(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
