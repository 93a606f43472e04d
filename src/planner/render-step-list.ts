/**
 * Rendering plan steps for a model to read.
 *
 * @module
 */

/**
 * Renders values (steps, or steps with results) as a JSON array with one
 * item per line, the way plans are shown to the model.
 *
 * @param items - the items.
 * @returns the JSON text (`[]` for none).
 *
 * @example
 * ```ts
 * renderStepList([{ id: "s1", type: "reply", text: "Hi" }]);
 * // '[\n{"id":"s1","type":"reply","text":"Hi"}\n]'
 * ```
 */
export function renderStepList(items: readonly unknown[]): string {
  return items.length === 0 ? "[]" : `[\n${items.map((item) => JSON.stringify(item)).join(",\n")}\n]`;
}
