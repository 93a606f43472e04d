/**
 * Free ids for the steps a planner adds.
 *
 * @module
 */

/**
 * Picks ids for steps a planner adds: the preferred id, or that id with the
 * first free `_1`, `_2`, … suffix.
 *
 * @param taken - the ids already in use (steps, and ids that may not be reused).
 * @returns a function from a preferred id to a free one.
 *
 * @example
 * ```ts
 * const freeId = createIdPicker(["reply"]);
 * freeId("reply"); // "reply_1"
 * ```
 */
export function createIdPicker(taken: Iterable<string>): (preferred: string) => string {
  const used = new Set(taken);
  return (preferred) => {
    let id = preferred;
    for (let suffix = 1; used.has(id); suffix++) id = `${preferred}_${suffix}`;
    used.add(id);
    return id;
  };
}
