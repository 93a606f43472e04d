/**
 * Strategy 2: configured, deterministic rules.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import type { DecisionStrategy } from "../decision-strategy.ts";
import { describeCondition } from "../describe-condition.ts";
import { evaluateCondition } from "../evaluate-condition.ts";
import { explainUnavailableSkill } from "../explain-unavailable-skill.ts";

/**
 * `priority_rules`: the phase's rules, then the playbook's, in order; the
 * first whose `when` holds forces its skill. A rule that hits a skill that
 * cannot run throws rather than passing, so a rule never silently does nothing.
 *
 * @throws PlankitError `unavailable-skill` when a rule hits and its skill is not available.
 * @example
 * ```ts
 * // phase.priority_rules: [{ when: { path: "file_id", op: "present" }, skill: "parse_file" }]
 * (await decide({ state, playbook, skills })).skill; // "parse_file" once file_id is set
 * ```
 */
export const priorityRulesStrategy: DecisionStrategy = {
  name: "priority_rules",
  run(context) {
    const { phase, playbook, state } = context;
    const rules = [
      ...(phase.priority_rules ?? []).map((rule, index) => ({
        rule,
        label: `phase "${phase.id}" priority_rules[${index}]`,
      })),
      ...(playbook.priority_rules ?? []).map((rule, index) => ({ rule, label: `playbook priority_rules[${index}]` })),
    ];
    if (rules.length === 0) return { hit: false, reason: "no priority rules apply to this phase" };
    for (const { rule, label } of rules) {
      if (!evaluateCondition(rule.when, state)) continue;
      const name = `${label}${rule.id === undefined ? "" : ` ("${rule.id}")`}`;
      const condition = describeCondition(rule.when);
      const why = explainUnavailableSkill(context, rule.skill);
      if (why !== undefined) {
        throw new PlankitError(
          "unavailable-skill",
          `Priority rule ${name} hit (${condition}) but its skill "${rule.skill}" cannot run: ${why}. Check allowed_skills and meta.requires`,
        );
      }
      const because = rule.reason === undefined ? "" : `: ${rule.reason}`;
      return {
        hit: true,
        action: "call_skill",
        skill: rule.skill,
        reason: `priority rule ${name} hit (${condition})${because}`,
      };
    }
    return { hit: false, reason: `none of ${rules.length} priority ${rules.length === 1 ? "rule" : "rules"} hit` };
  },
};
