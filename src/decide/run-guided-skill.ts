/**
 * One skill of a guided turn: its tool call, its outputs written into the
 * state, and the events around it.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { toErrorInfo } from "../events/to-error-info.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import { type AppliedSkillOutputs, applySkillOutputs } from "./apply-skill-outputs.ts";
import type { DecisionState } from "./decision-state.ts";
import type { GuidedEventBody } from "./guided-conversation.ts";
import type { GuidedTurnUsage } from "./guided-event.ts";
import type { Skill } from "./skill.ts";

/** What a guided turn lends the skill it runs. */
export interface GuidedSkillContext {
  /** The registry holding a tool per skill. */
  registry: ToolRegistry;
  /** The turn's id: the tool call's id is `<turnId>:<skill>`. */
  turnId: string;
  /** Aborts the call. */
  signal: AbortSignal | undefined;
  /** The turn's clock, in milliseconds. */
  now: () => number;
  /** Emits one of the turn's events. */
  emit: (event: GuidedEventBody) => void;
  /** Throws when the turn was aborted. */
  checkAbort: () => void;
  /** The turn's counters; the tool call is counted. */
  usage: GuidedTurnUsage;
}

/**
 * Calls a skill's tool and writes its outputs into the state, emitting
 * `skill-start`, then `skill-end` or `skill-error`.
 *
 * @param context - what the turn lends.
 * @param state - the state before the skill.
 * @param skill - the skill.
 * @param input - the tool's arguments.
 * @returns the new state and what the skill wrote and changed.
 * @throws PlankitError the tool's own, or `tool-error` wrapping anything else it threw.
 */
export async function runGuidedSkill(
  context: GuidedSkillContext,
  state: DecisionState,
  skill: Skill,
  input: Record<string, unknown>,
): Promise<AppliedSkillOutputs> {
  const { name } = skill;
  const { emit, now, signal } = context;
  emit({ type: "skill-start", skill: name, input });
  const started = now();
  try {
    context.usage.toolCalls++;
    const result = await context.registry.call(name, input, {
      ...(signal === undefined ? {} : { signal }),
      callId: `${context.turnId}:${name}`,
    });
    context.checkAbort();
    const applied = applySkillOutputs(state, skill, result);
    emit({
      type: "skill-end",
      skill: name,
      result,
      written: applied.written,
      changed: applied.changed,
      durationMs: Math.max(0, now() - started),
    });
    return applied;
  } catch (error) {
    emit({
      type: "skill-error",
      skill: name,
      error: toErrorInfo(error, "tool-error"),
      durationMs: Math.max(0, now() - started),
    });
    if (PlankitError.isInstance(error)) throw error;
    throw new PlankitError(
      "tool-error",
      `Skill "${name}" failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
