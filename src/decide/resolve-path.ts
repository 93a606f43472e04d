/**
 * Resolution of state paths — the one place that knows where a path points.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { isRecord } from "../shared/is-record.ts";
import type { DecisionState } from "./decision-state.ts";
import { isPresent } from "./is-present.ts";
import { parseStatePath } from "./parse-state-path.ts";

/** The result of {@link resolvePath}: whether the path exists and its value. */
export type ResolvedPath = { found: true; value: unknown } | { found: false };

const own = (object: object, key: string): boolean => Object.hasOwn(object, key);

function descend(value: unknown, keys: readonly string[]): ResolvedPath {
  let current = value;
  for (const key of keys) {
    if (!isRecord(current) || !own(current, key)) return { found: false };
    current = current[key];
  }
  return { found: true, value: current };
}

/**
 * Resolves a state path. `profile.<field>` and `decisions.<field>` read those
 * objects (deeper segments descend into nested objects). A bare name is a data
 * leaf: it is looked up in every group of `state.data`, in key order; the first
 * group where it is present (see `isPresent`) wins, else the first group that
 * has the key at all.
 *
 * @param state - the per-turn state.
 * @param path - a state path (`profile.name`, `decisions.plan`, `budget`).
 * @returns `{ found: true, value }` or `{ found: false }`.
 * @throws PlankitError `invalid-path` when `path` is not a state path (a
 *   `state.` prefix, `data.<group>.<field>`, …): a silent "missing" would stall
 *   a phase forever.
 * @example
 * ```ts
 * resolvePath({ data: { trip: { budget: 900 } } }, "budget"); // { found: true, value: 900 }
 * ```
 */
export function resolvePath(state: DecisionState, path: string): ResolvedPath {
  const parsed = parseStatePath(path);
  switch (parsed.kind) {
    case "invalid":
      throw new PlankitError("invalid-path", `"${path}" is not a state path: ${parsed.problem}`);
    case "profile":
    case "decisions":
      return descend(state[parsed.kind], [parsed.field, ...parsed.rest]);
    case "leaf": {
      let fallback: ResolvedPath = { found: false };
      for (const group of Object.values(state.data ?? {})) {
        if (!isRecord(group) || !own(group, parsed.name)) continue;
        const value = group[parsed.name];
        if (isPresent(value)) return { found: true, value };
        if (!fallback.found) fallback = { found: true, value };
      }
      return fallback;
    }
  }
}
