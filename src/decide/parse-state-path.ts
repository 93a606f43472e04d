/**
 * The grammar of state paths, shared by path resolution and playbook
 * validation so both agree on what a path means.
 *
 * @module
 */

/** A state path taken apart. */
export type StatePath =
  /** `profile.<field>[.<more>]` or `decisions.<field>[.<more>]`. */
  | { kind: "profile" | "decisions"; field: string; rest: readonly string[] }
  /** A data leaf name: looked up inside every group of `state.data`. */
  | { kind: "leaf"; name: string }
  /** Not a state path; `problem` says why. */
  | { kind: "invalid"; problem: string };

const segmentPattern = /^[^\s.]+$/u;

/**
 * Takes a dot path apart. Accepted forms: `profile.<field>`,
 * `decisions.<field>` (each may go deeper: `profile.address.city`) and a bare
 * data leaf name (`budget`). Everything else — a `state.` prefix,
 * `data.<group>.<field>`, an empty segment, whitespace, any other dotted root —
 * is `invalid`, with the fix in `problem`.
 *
 * @param path - the path as written in a playbook or a skill.
 * @returns the parsed path.
 * @example
 * ```ts
 * parseStatePath("profile.name"); // { kind: "profile", field: "name", rest: [] }
 * parseStatePath("budget");       // { kind: "leaf", name: "budget" }
 * ```
 */
export function parseStatePath(path: string): StatePath {
  if (path === "") return { kind: "invalid", problem: "the path is empty" };
  const segments = path.split(".");
  if (!segments.every((segment) => segmentPattern.test(segment))) {
    return { kind: "invalid", problem: "a segment is empty or contains whitespace" };
  }
  const [root, field, ...rest] = segments as [string, ...string[]];
  if (root === "state") {
    return { kind: "invalid", problem: `drop the "state." prefix: write "${segments.slice(1).join(".")}"` };
  }
  if (root === "data") {
    return { kind: "invalid", problem: `name data by its leaf: write "${segments[segments.length - 1]}"` };
  }
  if (root === "profile" || root === "decisions") {
    if (field === undefined) return { kind: "invalid", problem: `name a field: "${root}.<field>"` };
    return { kind: root, field, rest };
  }
  if (field !== undefined) {
    return {
      kind: "invalid",
      problem: `a dotted path must start with "profile." or "decisions."; data leaves are bare names`,
    };
  }
  return { kind: "leaf", name: root };
}
