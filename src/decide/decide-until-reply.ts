/**
 * The decisions of a guided turn: decide, move phase or run a skill, and
 * again, until a decision is to respond or to finish.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { decide } from "./decide.ts";
import type { Decision } from "./decision.ts";
import type { DecisionState } from "./decision-state.ts";
import type { DecisionStrategy } from "./decision-strategy.ts";
import type { SkillArgumentsContext } from "./guided-conversation.ts";
import type { RecordedValue } from "./guided-reply-input.ts";
import type { PhaseManager } from "./phase-manager.ts";
import type { Playbook } from "./playbook.ts";
import { resolvePath } from "./resolve-path.ts";
import { type GuidedSkillContext, runGuidedSkill } from "./run-guided-skill.ts";
import type { Skill } from "./skill.ts";

/** What the decisions of one turn work with; `decisions` and `recorded` are filled in. */
export interface GuidedDecisionLoop {
  /** The user's message. */
  message: string;
  /** The playbook. */
  playbook: Playbook;
  /** The skills by name. */
  skills: ReadonlyMap<string, Skill>;
  /** The playbook's phases. */
  phases: PhaseManager;
  /** The most decisions a turn may make. */
  maxDecisions: number;
  /** A skill's tool arguments. */
  skillArguments: (skill: Skill, context: SkillArgumentsContext) => Record<string, unknown>;
  /** The model the strategies may ask, counted. */
  model: PlanModel | undefined;
  /** Aborts the turn. */
  signal: AbortSignal | undefined;
  /** The decision chain, when not the default one. */
  strategies: readonly DecisionStrategy[] | undefined;
  /** Every decision made, in order. */
  decisions: Decision[];
  /** Every value a skill wrote, in order. */
  recorded: RecordedValue[];
  /** What a skill's run borrows from the turn. */
  skill: GuidedSkillContext;
}

/** How a turn's decisions ended, and the state they left. */
export interface GuidedDecisionOutcome {
  /** Respond to the user, or finish the conversation. */
  action: "respond" | "finish";
  /** Why. */
  reason: string;
  /** The state after the decisions. */
  state: DecisionState;
}

/**
 * Decides until the turn should reply. A skill chosen a second time in one
 * turn, or one that records nothing new, ends the turn with a reply too.
 *
 * @param turn - what the decisions work with.
 * @param start - the state at the turn's start.
 * @returns the outcome and the new state.
 * @throws PlankitError `budget-exceeded` after `maxDecisions`, `unknown-phase`, `unavailable-skill`, `aborted`,
 *   or what a skill threw.
 */
export async function decideUntilReply(turn: GuidedDecisionLoop, start: DecisionState): Promise<GuidedDecisionOutcome> {
  const { decisions, phases, skills, message, signal, strategies, model } = turn;
  const ran = new Set<string>();
  let state = start;
  for (;;) {
    turn.skill.checkAbort();
    if (decisions.length >= turn.maxDecisions) {
      throw new PlankitError(
        "budget-exceeded",
        `The turn made ${turn.maxDecisions} decisions without a reply (last: ${decisions.at(-1)?.action ?? "none"} in phase "${phases.current(state).id}"): raise maxDecisions or check the chain`,
      );
    }
    const decision = await decide({
      state,
      playbook: turn.playbook,
      skills,
      message,
      ...(model === undefined ? {} : { model }),
      ...(signal === undefined ? {} : { signal }),
      ...(strategies === undefined ? {} : { strategies }),
    });
    decisions.push(decision);
    turn.skill.usage.decisions++;
    turn.skill.emit({ type: "decision", trace: decision.trace });
    if (decision.action === "respond" || decision.action === "finish")
      return { action: decision.action, reason: decision.reason, state };
    if (decision.action === "replan") {
      const next = decision.next_phase;
      if (next === undefined || phases.get(next) === undefined) {
        throw new PlankitError(
          "unknown-phase",
          `Strategy "${decision.strategy}" moved to phase ${JSON.stringify(next)}, which the playbook lacks`,
        );
      }
      turn.skill.emit({ type: "phase-change", from: decision.phase, to: next, reason: decision.reason });
      state = { ...state, current_task_id: next };
      continue;
    }
    const name = decision.skill ?? "";
    const skill = skills.get(name);
    if (skill === undefined)
      throw new PlankitError(
        "unavailable-skill",
        `Strategy "${decision.strategy}" chose skill "${name}", which is not in the skill registry`,
      );
    if (ran.has(name)) {
      return {
        action: "respond",
        reason: `"${name}" already ran this turn and was chosen again, so it waits for the user`,
        state,
      };
    }
    ran.add(name);
    const applied = await runGuidedSkill(turn.skill, state, skill, turn.skillArguments(skill, { message, state }));
    state = applied.state;
    if (decision.strategy === "force_skill" && state.force_skill === name) {
      const { force_skill: _cleared, ...rest } = state;
      state = rest;
    }
    for (const path of applied.written) {
      const resolved = resolvePath(state, path);
      turn.recorded.push({ path, value: resolved.found ? resolved.value : null, skill: name });
    }
    if (applied.changed.length === 0)
      return { action: "respond", reason: `"${name}" recorded nothing new, so the turn asks the user`, state };
  }
}
