/**
 * Values that later mutation cannot change.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";

/**
 * Copies a JSON-like value: plain data is copied, getters are read once,
 * `toJSON` (dates) is applied, and the copy is frozen when asked. Functions,
 * BigInts, symbols, cycles and numbers JSON cannot hold (`NaN`, `Infinity`,
 * `-Infinity`) cannot be carried in events or history, so they throw; `-0`
 * is kept.
 *
 * @param value - a step result or arguments.
 * @param options - `freeze` makes the copy deeply immutable; `what` names the value in errors.
 * @returns the copy.
 * @throws PlankitError `invalid-result` naming the path and what was found there.
 *
 * @example
 * ```ts
 * const copy = snapshotValue({ items: [1, 2] }, { freeze: true, what: 'Result of step "s1"' });
 * ```
 */
export function snapshotValue(value: unknown, options: { freeze: boolean; what: string }): unknown {
  const ancestors: object[] = [];
  const fail = (path: string, found: string): never => {
    throw new PlankitError(
      "invalid-result",
      `${options.what} cannot be copied: ${found} at ${path === "" ? "/" : path}`,
    );
  };
  const visit = (current: unknown, path: string): unknown => {
    switch (typeof current) {
      case "number":
        // JSON has no NaN or infinity: the log would say null while history said NaN.
        return Number.isFinite(current) ? current : fail(path, String(current));
      case "string":
      case "boolean":
      case "undefined":
        return current;
      case "bigint":
        return fail(path, "a BigInt");
      case "symbol":
        return fail(path, "a symbol");
      case "function":
        return fail(path, "a function");
      default:
        break;
    }
    if (current === null) return null;
    const object = current as object;
    if (ancestors.includes(object)) return fail(path, "a cycle");
    let toJson: unknown;
    try {
      toJson = (object as { toJSON?: unknown }).toJSON;
    } catch {
      return fail(path, "a property that throws when read");
    }
    if (typeof toJson === "function") {
      let converted: unknown;
      try {
        converted = (toJson as () => unknown).call(object);
      } catch {
        return fail(path, "a toJSON method that throws");
      }
      if (converted !== object) return visit(converted, path);
    }
    ancestors.push(object);
    let copy: unknown[] | Record<string, unknown>;
    try {
      if (Array.isArray(object)) {
        const list: unknown[] = [];
        for (let index = 0; index < object.length; index++)
          list.push(visit((object as unknown[])[index], `${path}/${index}`));
        copy = list;
      } else {
        const record: Record<string, unknown> = {};
        for (const key of Object.keys(object)) {
          let item: unknown;
          try {
            item = (object as Record<string, unknown>)[key];
          } catch {
            return fail(`${path}/${key}`, "a property that throws when read");
          }
          // defineProperty keeps a "__proto__" key a plain key.
          Object.defineProperty(record, key, {
            value: visit(item, `${path}/${key}`),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        copy = record;
      }
    } finally {
      ancestors.pop();
    }
    return options.freeze ? Object.freeze(copy) : copy;
  };
  try {
    return visit(value, "");
  } catch (error) {
    if (PlankitError.isInstance(error)) throw error;
    // Nesting deeper than the stack allows, or a proxy whose traps throw.
    const why = error instanceof RangeError ? "it nests deeper than the stack allows" : "reading it threw";
    throw new PlankitError("invalid-result", `${options.what} cannot be copied: ${why}`);
  }
}
