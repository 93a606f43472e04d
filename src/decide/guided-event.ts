/**
 * The events a guided conversation emits during a turn.
 *
 * @module
 */
import type { RuntimeErrorInfo } from "../events/runtime-event.ts";
import type { DecisionState } from "./decision-state.ts";
import type { DecisionTrace } from "./decision-trace.ts";

/** Fields every guided event carries, like the runtime's events. */
export interface GuidedEventBase {
  /** The turn's id. */
  turnId: string;
  /** Milliseconds since the turn started. */
  t: number;
}

/** A turn starts. */
export interface TurnStartEvent extends GuidedEventBase {
  type: "turn-start";
  /** The user's message. */
  message: string;
  /** The phase the turn starts in. */
  phase: string;
}

/** The engine decided: the trace lists every strategy tried and the one that hit. */
export interface DecisionEvent extends GuidedEventBase {
  type: "decision";
  trace: DecisionTrace;
}

/** A skill's tool is called. */
export interface SkillStartEvent extends GuidedEventBase {
  type: "skill-start";
  skill: string;
  /** The tool's arguments. */
  input: Record<string, unknown>;
}

/** A skill's tool returned and its outputs were written into the state. */
export interface SkillEndEvent extends GuidedEventBase {
  type: "skill-end";
  skill: string;
  /** The tool's result. */
  result: unknown;
  /** The provided paths the result held. */
  written: string[];
  /** The written paths whose value changed; empty when the skill made no progress. */
  changed: string[];
  durationMs: number;
}

/** A skill's tool failed; the turn fails with it. */
export interface SkillErrorEvent extends GuidedEventBase {
  type: "skill-error";
  skill: string;
  error: RuntimeErrorInfo;
  durationMs: number;
}

/** The engine moved the conversation to the next phase (`replan`). */
export interface PhaseChangeEvent extends GuidedEventBase {
  type: "phase-change";
  from: string;
  to: string;
  reason: string;
}

/** The answer to the user. */
export interface GuidedReplyEvent extends GuidedEventBase {
  type: "reply";
  text: string;
  /** `respond`: the conversation goes on; `finish`: the closing reply. */
  action: "respond" | "finish";
  /** `model`: written by the model; `template`: a fixed rendering (no model, or the model failed). */
  source: "model" | "template";
  /** Why the turn replies now. */
  reason: string;
  /** Why the model's reply was not used, when it failed. */
  error?: RuntimeErrorInfo;
}

/** Counts of one turn. */
export interface GuidedTurnUsage {
  /** Decisions made (one per `decision` event). */
  decisions: number;
  /** Model calls: the `llm_planner` strategy and the reply. */
  modelCalls: number;
  /** Tool calls of skills. */
  toolCalls: number;
}

/** The turn ended: always the last event. */
export interface TurnEndEvent extends GuidedEventBase {
  type: "turn-end";
  /** The current phase after the turn. */
  phase: string;
  /** The turn ended with `finish`. */
  finished: boolean;
  /** The reply, unless the turn failed. */
  reply?: string;
  /** The new state (the state the turn started from when it failed). */
  state: DecisionState;
  usage: GuidedTurnUsage;
  durationMs: number;
  /** Why the turn failed. */
  error?: RuntimeErrorInfo;
}

/**
 * One event of a guided turn: plain JSON with a stable `type`, the turn id
 * and `t`, the milliseconds since the turn started. `turn-start` comes first
 * and `turn-end` (with the reply and the new state) last; in between, a
 * `decision` per decision, `skill-start` / `skill-end` (or `skill-error`) per
 * skill, `phase-change` per `replan`, and one `reply`.
 *
 * @example
 * ```ts
 * await conversation.turn("I'd like to go to Tokyo", {
 *   onEvent: (event) => { if (event.type === "decision") console.log(event.trace.strategy, event.trace.reason); },
 * });
 * ```
 */
export type GuidedEvent =
  | TurnStartEvent
  | DecisionEvent
  | SkillStartEvent
  | SkillEndEvent
  | SkillErrorEvent
  | PhaseChangeEvent
  | GuidedReplyEvent
  | TurnEndEvent;

/** The `type` strings of {@link GuidedEvent}. */
export type GuidedEventType = GuidedEvent["type"];
