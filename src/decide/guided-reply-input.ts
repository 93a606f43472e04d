/**
 * What a guided conversation's reply is written from.
 *
 * @module
 */
import type { DecisionState } from "./decision-state.ts";
import type { Phase } from "./phase.ts";

/** A goal the current phase still misses. */
export interface MissingGoal {
  /** The goal's state path. */
  goal: string;
  /** What gets it: the description of a skill that provides it, when there is one. */
  hint?: string;
}

/** A value a skill recorded during the turn. */
export interface RecordedValue {
  /** The state path written. */
  path: string;
  value: unknown;
  /** The skill that wrote it. */
  skill: string;
}

/**
 * The facts a reply is written from, by the model (`buildGuidedReplyPrompt`)
 * or without one (`renderGuidedReply`).
 *
 * @example
 * ```ts
 * const input: GuidedReplyInput = { action: "respond", phase: { id: "collect" }, missing: [{ goal: "dates" }], recorded: [], reason: "…", message: "hi", state: {} };
 * ```
 */
export interface GuidedReplyInput {
  /** `respond`: the conversation goes on; `finish`: it is complete. */
  action: "respond" | "finish";
  /** The current phase. */
  phase: Phase;
  /** The current phase's missing goals (empty on `finish`). */
  missing: MissingGoal[];
  /** What skills recorded this turn, in order. */
  recorded: RecordedValue[];
  /** Why the turn replies now. */
  reason: string;
  /** The user's message. */
  message: string;
  /** The state after the turn's skills ran. */
  state: DecisionState;
}
