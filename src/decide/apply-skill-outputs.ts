/**
 * Writing a skill's result into the state, under the paths the skill provides.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import type { DecisionState } from "./decision-state.ts";
import { isPresent } from "./is-present.ts";
import { jsonEqual } from "./json-equal.ts";
import { parseStatePath } from "./parse-state-path.ts";
import { resolvePath } from "./resolve-path.ts";
import type { Skill } from "./skill.ts";

/** What {@link applySkillOutputs} did. */
export interface AppliedSkillOutputs {
  /** The new state; the input state is left as it was. */
  state: DecisionState;
  /** The provided paths the result held, in `outputs.provides` order. */
  written: string[];
  /** The written paths that now resolve to a different value. */
  changed: string[];
}

type JsonRecord = Record<string, unknown>;

/**
 * A copy of `record` with `key` set. `defineProperty` keeps a key such as
 * `__proto__` an ordinary own property instead of changing the prototype.
 */
function withKey(record: JsonRecord | undefined, key: string, value: unknown): JsonRecord {
  const copy: JsonRecord = { ...record };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A copy of `record` with the value at `keys` set, copying each object on the way. */
function withPath(record: JsonRecord | undefined, keys: readonly string[], value: unknown): JsonRecord {
  const [first, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) return withKey(record, first, value);
  const inner = record?.[first];
  return withKey(record, first, withPath(isRecord(inner) ? inner : undefined, rest, value));
}

/**
 * The group a data leaf is written to: the one `resolvePath` reads it from
 * (the first group where it is present, else the first that has the key), so
 * the new value is the one the engine sees; else `fallback`.
 */
function targetGroup(data: Readonly<Record<string, unknown>>, leaf: string, fallback: string): string {
  let withLeaf: string | undefined;
  for (const [name, group] of Object.entries(data)) {
    if (!isRecord(group) || !Object.hasOwn(group, leaf)) continue;
    if (isPresent(group[leaf])) return name;
    withLeaf ??= name;
  }
  return withLeaf ?? fallback;
}

/**
 * Writes a skill's result into a copy of the state. The result is an object
 * keyed by the paths the skill lists in `outputs.provides`, exactly as written
 * there (`{ "profile.name": "Ada", "destination": "Lisbon" }`):
 *
 * - `profile.<field>` and `decisions.<field>` (deeper paths too) are set in
 *   `state.profile` / `state.decisions`;
 * - a data leaf is set in the group that already holds it (the one the engine
 *   reads), else in a group named after the skill (`data.<skill>.<leaf>`);
 * - a provided path missing from the result (or `undefined`) is left alone, so
 *   a skill that found nothing records nothing; `null` or `""` clears a goal.
 *
 * Values are copied with `structuredClone`, so the state never shares objects
 * with the tool. The input state is never changed.
 *
 * @param state - the state before the skill ran.
 * @param skill - the skill that ran.
 * @param result - the result of the skill's tool.
 * @returns the new state, the paths written and the paths whose value changed.
 * @throws PlankitError `invalid-output` when the result is not an object or has a key the skill does not provide;
 *   `invalid-path` when `outputs.provides` holds something that is not a state path.
 * @example
 * ```ts
 * const skill = { name: "read_destination", outputs: { provides: ["destination"] } };
 * applySkillOutputs({}, skill, { destination: "Lisbon" }).state; // { data: { read_destination: { destination: "Lisbon" } } }
 * ```
 */
export function applySkillOutputs(state: DecisionState, skill: Skill, result: unknown): AppliedSkillOutputs {
  const provides = skill.outputs?.provides ?? [];
  const expected = provides.length === 0 ? "nothing" : provides.join(", ");
  const prototype: unknown = isRecord(result) ? Object.getPrototypeOf(result) : undefined;
  if (!isRecord(result) || (prototype !== Object.prototype && prototype !== null)) {
    throw new PlankitError(
      "invalid-output",
      `Skill "${skill.name}" returned ${describeValue(result)}; expected an object keyed by the paths it provides (${expected})`,
    );
  }
  for (const key of Object.keys(result)) {
    if (!provides.includes(key)) {
      throw new PlankitError(
        "invalid-output",
        `Skill "${skill.name}" returned the key "${key}", which it does not provide (provides: ${expected}): rename the key or add it to outputs.provides`,
      );
    }
  }
  let next: DecisionState = state;
  const written: string[] = [];
  const changed: string[] = [];
  for (const path of new Set(provides)) {
    if (!Object.hasOwn(result, path) || result[path] === undefined) continue;
    const parsed = parseStatePath(path);
    if (parsed.kind === "invalid") {
      throw new PlankitError(
        "invalid-path",
        `Skill "${skill.name}" provides "${path}", which is not a state path: ${parsed.problem}`,
      );
    }
    const value: unknown = structuredClone(result[path]);
    const before = resolvePath(next, path);
    if (parsed.kind === "leaf") {
      const data = next.data ?? {};
      const group = targetGroup(data, parsed.name, skill.name);
      next = {
        ...next,
        data: withKey(data, group, withKey(data[group], parsed.name, value)) as NonNullable<DecisionState["data"]>,
      };
    } else {
      next = { ...next, [parsed.kind]: withPath(next[parsed.kind], [parsed.field, ...parsed.rest], value) };
    }
    written.push(path);
    if (!before.found || !jsonEqual(before.value, value)) changed.push(path);
  }
  return { state: next, written, changed };
}
