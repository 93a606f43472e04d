/**
 * Strategy 5: choosing by coverage of the missing goals, without a model.
 *
 * @module
 */
import type { DecisionStrategy } from "../decision-strategy.ts";

/**
 * `deterministic`: scores each available skill by how many of the phase's
 * missing goals its `outputs.provides` covers; when exactly one skill has the
 * highest non-zero score, it is chosen. Ties and zero coverage pass to the
 * model.
 *
 * @example
 * ```ts
 * // missing goals: ["budget"]; only "ask_budget" provides "budget"
 * (await decide({ state, playbook, skills })).skill; // "ask_budget"
 * ```
 */
export const deterministicStrategy: DecisionStrategy = {
  name: "deterministic",
  run({ available, missingGoals }) {
    if (available.length === 0) return { hit: false, reason: "no skill is available" };
    if (missingGoals.length === 0) return { hit: false, reason: "the phase has no missing goal to cover" };
    const scored = available.map((skill) => {
      const provides = new Set(skill.outputs?.provides ?? []);
      return { name: skill.name, covered: missingGoals.filter((goal) => provides.has(goal)) };
    });
    const best = Math.max(...scored.map((entry) => entry.covered.length));
    if (best === 0) {
      return { hit: false, reason: `no available skill provides a missing goal (missing: ${missingGoals.join(", ")})` };
    }
    const top = scored.filter((entry) => entry.covered.length === best);
    if (top.length > 1) {
      return {
        hit: false,
        reason: `${top.map((entry) => `"${entry.name}"`).join(", ")} each cover ${best} missing ${best === 1 ? "goal" : "goals"}; no unique choice`,
      };
    }
    const [winner] = top as [{ name: string; covered: string[] }];
    return {
      hit: true,
      action: "call_skill",
      skill: winner.name,
      reason: `"${winner.name}" is the only available skill covering the most missing goals (${winner.covered.join(", ")})`,
    };
  },
};
