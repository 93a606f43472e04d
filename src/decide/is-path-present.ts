/**
 * Presence of a state path — what checkpoints and `requires` test.
 *
 * @module
 */
import type { DecisionState } from "./decision-state.ts";
import { isPresent } from "./is-present.ts";
import { resolvePath } from "./resolve-path.ts";

/**
 * Whether `path` resolves to a present value (see `isPresent` and `resolvePath`).
 *
 * @param state - the per-turn state.
 * @param path - a state path.
 * @returns `true` when the path exists and its value is present.
 * @throws PlankitError `invalid-path` when `path` is not a state path.
 * @example
 * ```ts
 * isPathPresent({ profile: { name: "Ada" } }, "profile.name"); // true
 * ```
 */
export function isPathPresent(state: DecisionState, path: string): boolean {
  const resolved = resolvePath(state, path);
  return resolved.found && isPresent(resolved.value);
}
