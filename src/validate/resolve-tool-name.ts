/**
 * Resolving a tool name as a function-calling API forced a model to write it.
 *
 * @module
 */

import type { CompiledCatalog } from "../tools/compile-catalog.ts";

/** What {@link resolveToolName} found. */
export type ToolNameResolution =
  /** The name is registered as it is, or exactly one registered name matches it. */
  | { kind: "found"; name: string }
  /** Several registered names match it: the model's choice is ambiguous. */
  | { kind: "ambiguous"; names: string[] }
  /** No registered name matches it. */
  | { kind: "unknown" };

/**
 * Folds case and treats `.`, `_` and `-` as one separator, so that
 * `math_factorial`, `Math.Factorial` and `math-factorial` agree.
 *
 * @param name - a tool name.
 * @returns the folded name.
 */
function fold(name: string): string {
  return name.toLowerCase().replace(/[._-]/gu, "_");
}

/**
 * Resolves a tool name a model wrote to a registered one. Function-calling
 * APIs forbid dots in names, so models write `math_factorial` for a tool
 * named `math.factorial`: a name that is not registered resolves to the
 * single registered name it equals after folding case and the separators
 * `.`, `_` and `-`; when several do, the name is ambiguous. Only the given
 * names are candidates, so a model can never reach a tool outside them.
 *
 * @param name - the name the model wrote.
 * @param registered - the names it may resolve to (the allowed tools).
 * @param has - whether a name is registered as it is (defaults to a search of `registered`).
 * @returns the resolution.
 *
 * @example
 * ```ts
 * resolveToolName("math_factorial", ["math.factorial", "search"]); // { kind: "found", name: "math.factorial" }
 * resolveToolName("a_b", ["a.b", "a-b"]);                           // { kind: "ambiguous", names: ["a.b", "a-b"] }
 * ```
 */
export function resolveToolName(
  name: string,
  registered: readonly string[],
  has: (name: string) => boolean = (candidate) => registered.includes(candidate),
): ToolNameResolution {
  if (has(name)) return { kind: "found", name };
  const folded = fold(name);
  const names = registered.filter((candidate) => fold(candidate) === folded);
  if (names.length === 1) return { kind: "found", name: names[0]! };
  return names.length === 0 ? { kind: "unknown" } : { kind: "ambiguous", names };
}

/**
 * Resolves a tool name against a compiled catalog (see {@link resolveToolName}).
 *
 * @param name - the name as written.
 * @param catalog - the catalog.
 * @returns the resolution.
 */
export function resolveCatalogTool(name: string, catalog: CompiledCatalog): ToolNameResolution {
  return resolveToolName(
    name,
    catalog.tools.map((tool) => tool.name),
    (candidate) => catalog.get(candidate) !== undefined,
  );
}
