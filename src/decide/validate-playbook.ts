/**
 * Static checks of a playbook against a skill registry.
 *
 * @module
 */
import * as v from "valibot";
import type { Condition } from "./condition.ts";
import { findConditionProblem } from "./find-condition-problem.ts";
import { parseStatePath } from "./parse-state-path.ts";
import { type Playbook, PlaybookSchema } from "./playbook.ts";
import type { PlaybookIssue, PlaybookIssueCode } from "./playbook-issue.ts";
import type { PriorityRule } from "./priority-rule.ts";
import type { Skill } from "./skill.ts";
import { type SkillCatalog, toSkillMap } from "./skill-catalog.ts";

/** Options of {@link validatePlaybook}. */
export interface ValidatePlaybookOptions {
  /**
   * The `profile.` fields a playbook may name.
   * @defaultValue every `profile.` field some skill provides or requires
   */
  profileFields?: readonly string[];
  /**
   * The `decisions.` fields a playbook may name.
   * @defaultValue every `decisions.` field some skill provides or requires
   */
  decisionFields?: readonly string[];
}

const escapePointer = (key: string | number): string => String(key).replaceAll("~", "~0").replaceAll("/", "~1");

function pointerOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => `/${escapePointer(item.key as string | number)}`).join("");
}

function skillFields(skills: Iterable<Skill>, kind: "profile" | "decisions"): Set<string> {
  const fields = new Set<string>();
  for (const skill of skills) {
    const paths = [
      ...(skill.outputs?.provides ?? []),
      ...(skill.meta?.requires?.all ?? []),
      ...(skill.meta?.requires?.any ?? []),
    ];
    for (const path of paths) {
      const parsed = parseStatePath(path);
      if (parsed.kind === kind) fields.add(parsed.field);
    }
  }
  return fields;
}

function conditionLeaves(condition: Condition, pointer: string): { path: string | undefined; pointer: string }[] {
  if ("all" in condition)
    return condition.all.flatMap((inner, index) => conditionLeaves(inner, `${pointer}/all/${index}`));
  if ("any" in condition)
    return condition.any.flatMap((inner, index) => conditionLeaves(inner, `${pointer}/any/${index}`));
  if ("not" in condition) return conditionLeaves(condition.not, `${pointer}/not`);
  return [{ path: condition.path, pointer }];
}

/**
 * Checks a playbook before it runs, so a configuration mistake is reported
 * once with its location instead of stalling a conversation. Every rule
 * reports with its own code (see `PlaybookIssueCode`):
 *
 * - the shape matches `PlaybookSchema` (else only `invalid-shape` issues are returned);
 * - at least one phase, and phase ids are unique;
 * - every path (gate_field, checkpoints, condition paths) is a dot path without
 *   a `state.` prefix, never `data.<group>.<field>`, and its `profile.` /
 *   `decisions.` field is in the allow-list;
 * - a `gate_field` has a `gate_value` or a `gate_check`; a `gate_value` has a `gate_field`;
 * - condition leaves name a path, except inside a `gate_check` with a `gate_field`;
 * - every phase has an allow-list (its own or the playbook's), and every
 *   allowed skill exists;
 * - every rule's skill exists, is allowed wherever the rule applies, and is not internal / api-call-only.
 *
 * @param playbook - the playbook, typically parsed JSON.
 * @param skills - the skill registry.
 * @param options - the profile / decisions field allow-lists.
 * @returns the issues, in document order; empty when the playbook is valid.
 * @throws PlankitError `invalid-catalog` when two skills share a name.
 * @example
 * ```ts
 * for (const issue of validatePlaybook(JSON.parse(text), skills)) console.error(issue.code, issue.path, issue.message);
 * ```
 */
export function validatePlaybook(
  playbook: unknown,
  skills: SkillCatalog,
  options: ValidatePlaybookOptions = {},
): PlaybookIssue[] {
  const parsed = v.safeParse(PlaybookSchema, playbook);
  if (!parsed.success) {
    return parsed.issues.map((issue) => {
      let path = pointerOf(issue);
      let message = issue.message;
      const problem = issue.type === "custom" ? findConditionProblem(issue.input) : undefined;
      if (problem) {
        path += problem.pointer;
        message = problem.message;
      }
      return { code: "invalid-shape", path, message: `${message} (${path || "/"})` };
    });
  }
  return checkPlaybook(parsed.output, toSkillMap(skills), options);
}

function checkPlaybook(
  playbook: Playbook,
  registry: ReadonlyMap<string, Skill>,
  options: ValidatePlaybookOptions,
): PlaybookIssue[] {
  const check = new PlaybookCheck(registry, options);
  if (playbook.phases.length === 0)
    check.report("no-phases", "/phases", "The playbook has no phases: add at least one");
  if (playbook.allowed_skills) check.checkAllowList(playbook.allowed_skills, "/allowed_skills", "The playbook");

  const seen = new Set<string>();
  const phaseLists: { id: string; names: readonly string[] }[] = [];
  playbook.phases.forEach((phase, index) => {
    if (seen.has(phase.id))
      check.report(
        "duplicate-phase",
        `/phases/${index}/id`,
        `Phase "${phase.id}" appears twice: phase ids must be unique`,
      );
    seen.add(phase.id);
    const names = checkPhase(check, playbook, phase, index);
    if (names !== undefined) phaseLists.push({ id: phase.id, names });
  });
  for (const [position, rule] of (playbook.priority_rules ?? []).entries()) {
    check.checkRule(rule, `/priority_rules/${position}`, `Playbook priority_rules[${position}]`, phaseLists);
  }
  return check.issues;
}

/** Checks one phase; returns the skills it allows, if any list applies. */
function checkPhase(
  check: PlaybookCheck,
  playbook: Playbook,
  phase: Playbook["phases"][number],
  index: number,
): readonly string[] | undefined {
  const pointer = `/phases/${index}`;
  const what = `Phase "${phase.id}"`;
  if (phase.allowed_skills) check.checkAllowList(phase.allowed_skills, `${pointer}/allowed_skills`, what);
  const names = phase.allowed_skills ?? playbook.allowed_skills;
  if (names === undefined) {
    check.report(
      "no-allowed-skills",
      pointer,
      `${what} has no allowed_skills and neither has the playbook: list the skills it may run`,
    );
  }

  if (phase.gate_field !== undefined) {
    check.checkPath(phase.gate_field, `${pointer}/gate_field`, `${what} gate_field`);
    if (phase.gate_value === undefined && phase.gate_check === undefined) {
      check.report(
        "gate-without-check",
        `${pointer}/gate_field`,
        `${what} has gate_field "${phase.gate_field}" but neither gate_value nor gate_check: say what the gate expects`,
      );
    }
  } else if (phase.gate_value !== undefined) {
    check.report(
      "gate-value-without-field",
      `${pointer}/gate_value`,
      `${what} has gate_value ${JSON.stringify(phase.gate_value)} but no gate_field to compare it with`,
    );
  }
  if (phase.gate_check !== undefined)
    check.checkCondition(phase.gate_check, `${pointer}/gate_check`, `${what} gate_check`, phase.gate_field);
  for (const [position, path] of (phase.checkpoints ?? []).entries()) {
    check.checkPath(path, `${pointer}/checkpoints/${position}`, `${what} checkpoint`);
  }
  const ownList = names === undefined ? [] : [{ id: phase.id, names }];
  for (const [position, rule] of (phase.priority_rules ?? []).entries()) {
    check.checkRule(rule, `${pointer}/priority_rules/${position}`, `${what} priority_rules[${position}]`, ownList);
  }
  return names;
}

/** The issues found so far, and the checks that add to them. */
class PlaybookCheck {
  readonly issues: PlaybookIssue[] = [];
  readonly registry: ReadonlyMap<string, Skill>;
  readonly allowed: { profile: Set<string>; decisions: Set<string> };

  constructor(registry: ReadonlyMap<string, Skill>, options: ValidatePlaybookOptions) {
    this.registry = registry;
    this.allowed = {
      profile: new Set(options.profileFields ?? skillFields(registry.values(), "profile")),
      decisions: new Set(options.decisionFields ?? skillFields(registry.values(), "decisions")),
    };
  }

  report(code: PlaybookIssueCode, path: string, message: string): void {
    this.issues.push({ code, path, message: `${message} (${path})` });
  }

  checkPath(path: string, pointer: string, what: string): void {
    if (path.startsWith("state.")) {
      this.report(
        "state-prefix",
        pointer,
        `${what} "${path}" starts with "state.": write "${path.slice("state.".length)}"`,
      );
      return;
    }
    if (path === "data" || path.startsWith("data.")) {
      const leaf = path.split(".").pop() ?? path;
      this.report(
        "data-group-path",
        pointer,
        `${what} "${path}" names data by its group: write the leaf name "${leaf}"`,
      );
      return;
    }
    const parsed = parseStatePath(path);
    if (parsed.kind === "invalid") {
      this.report("invalid-path", pointer, `${what} "${path}" is not a state path: ${parsed.problem}`);
      return;
    }
    if (parsed.kind === "leaf") return;
    const fields = this.allowed[parsed.kind];
    if (!fields.has(parsed.field)) {
      const known = [...fields].join(", ") || "none";
      this.report(
        "unknown-field",
        pointer,
        `${what} "${path}" names ${parsed.kind} field "${parsed.field}", which is not in the allow-list (allowed: ${known})`,
      );
    }
  }

  checkCondition(condition: Condition, pointer: string, what: string, defaultPath: string | undefined): void {
    for (const leaf of conditionLeaves(condition, pointer)) {
      if (leaf.path === undefined) {
        if (defaultPath === undefined) {
          this.report(
            "missing-condition-path",
            leaf.pointer,
            `${what} has a condition without "path" and there is no gate_field to default to: add "path"`,
          );
        }
      } else this.checkPath(leaf.path, `${leaf.pointer}/path`, `${what} condition path`);
    }
  }

  checkRule(
    rule: PriorityRule,
    pointer: string,
    what: string,
    phaseLists: { id: string; names: readonly string[] }[],
  ): void {
    this.checkCondition(rule.when, `${pointer}/when`, what, undefined);
    const skill = this.registry.get(rule.skill);
    if (!skill) {
      this.report(
        "unknown-skill",
        `${pointer}/skill`,
        `${what} forces skill "${rule.skill}", which is not in the skill registry`,
      );
      return;
    }
    for (const { id, names } of phaseLists) {
      if (!names.includes(rule.skill)) {
        this.report(
          "rule-skill-not-allowed",
          `${pointer}/skill`,
          `${what} forces skill "${rule.skill}", which phase "${id}" does not allow (allowed_skills: ${names.join(", ") || "none"})`,
        );
      }
    }
    const meta = skill.meta ?? {};
    if (meta.internal === true || meta.api_call_only === true) {
      const flag = meta.internal === true ? "internal" : "api_call_only";
      this.report(
        "rule-skill-restricted",
        `${pointer}/skill`,
        `${what} forces skill "${rule.skill}", which is ${flag} and never chosen by the planner`,
      );
    }
  }

  checkAllowList(names: readonly string[], pointer: string, what: string): void {
    names.forEach((name, index) => {
      if (!this.registry.has(name))
        this.report(
          "unknown-skill",
          `${pointer}/${index}`,
          `${what} allows skill "${name}", which is not in the skill registry`,
        );
    });
  }
}
