/**
 * The guided conversation's API: its options, a turn's options and outcome,
 * and the conversation itself (created by `createGuidedConversation`).
 *
 * @module
 */
import type { PlanModel } from "../model/plan-model.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import type { Decision } from "./decision.ts";
import type { DecisionState } from "./decision-state.ts";
import type { DecisionStrategy } from "./decision-strategy.ts";
import type { GuidedEvent } from "./guided-event.ts";
import type { Playbook } from "./playbook.ts";
import type { Skill } from "./skill.ts";
import type { SkillCatalog } from "./skill-catalog.ts";
import type { ValidatePlaybookOptions } from "./validate-playbook.ts";

/** An event without the fields the turn adds (`turnId`, `t`). */
export type GuidedEventBody = GuidedEvent extends infer E
  ? E extends GuidedEvent
    ? Omit<E, "turnId" | "t">
    : never
  : never;

/** What {@link GuidedConversationOptions.skillArguments} receives. */
export interface SkillArgumentsContext {
  /** The user's message of this turn. */
  message: string;
  /** The state before the skill runs. */
  state: DecisionState;
}

/** Options of {@link createGuidedConversation}. */
export interface GuidedConversationOptions {
  /** The playbook; checked once with `parsePlaybook`. */
  playbook: Playbook;
  /** The skill registry. */
  skills: SkillCatalog;
  /** The tools: a skill named X runs the tool named X. Every skill a playbook allows needs one. */
  registry: ToolRegistry;
  /** Asked by the `llm_planner` strategy and for replies; without one, replies come from a template. */
  model?: PlanModel;
  /**
   * The state of the first turn.
   *
   * @defaultValue `{}`
   */
  state?: DecisionState;
  /**
   * The strategy chain.
   *
   * @defaultValue `defaultStrategies`
   */
  strategies?: readonly DecisionStrategy[];
  /**
   * The most decisions in one turn before it fails with `budget-exceeded`.
   * Every skill runs at most once per turn and phases only move forward, so
   * the default chain needs at most (skills + phases + 1).
   *
   * @defaultValue `32`
   */
  maxDecisions?: number;
  /**
   * The arguments of a skill's tool.
   *
   * @defaultValue `{ message, inputs }`, `inputs` holding the present values of the
   *   skill's `meta.requires` paths, keyed by path (`{ "destination": "Tokyo" }`)
   */
  skillArguments?: (skill: Skill, context: SkillArgumentsContext) => Record<string, unknown>;
  /** The profile / decisions field allow-lists of the playbook check. */
  validation?: ValidatePlaybookOptions;
  /**
   * The clock of event offsets, in milliseconds.
   *
   * @defaultValue `performance.now()` (or `Date.now()`)
   */
  now?: () => number;
  /**
   * Makes turn ids.
   *
   * @defaultValue `turn_` and a random UUID
   */
  idGenerator?: () => string;
}

/** Options of {@link GuidedConversation.turn}. */
export interface GuidedTurnOptions {
  /**
   * Run the turn on this state instead of the conversation's own: the turn
   * then neither reads nor updates `conversation.state` (stateless servers
   * whose client sends the state back).
   */
  state?: DecisionState;
  /** Cancels the turn: every model and tool call in it. */
  signal?: AbortSignal;
  /** Receives each event as it happens. */
  onEvent?: (event: GuidedEvent) => void;
}

/** The outcome of one turn. */
export interface GuidedTurn {
  turnId: string;
  /** The answer to the user. */
  reply: string;
  /** `respond`: the conversation goes on; `finish`: it is complete. */
  action: "respond" | "finish";
  /** Whether the conversation is complete (`action === "finish"`). */
  finished: boolean;
  /** The current phase after the turn. */
  phase: string;
  /** The new state (a new object; the old one is unchanged). */
  state: DecisionState;
  /** The decisions of the turn, in order. */
  decisions: Decision[];
  /** Every event of the turn, `turn-start` first and `turn-end` last. */
  events: GuidedEvent[];
}

/** A guided conversation, created by {@link createGuidedConversation}. */
export interface GuidedConversation {
  /** The playbook. */
  readonly playbook: Playbook;
  /** The state after the last turn that used the conversation's own state. */
  readonly state: DecisionState;
  /**
   * Runs one turn on the user's message.
   *
   * @param message - what the user said.
   * @param options - an explicit state, an abort signal and an event listener.
   * @returns the reply, the new state, the decisions and the events.
   * @throws PlankitError from the engine (`unavailable-skill`, `invalid-playbook`, …), the tools
   *   (`invalid-argument`, `invalid-output`, `tool-error`, …), `budget-exceeded`, `aborted`, or
   *   `invalid-options` for a state that does not parse or a turn started while another runs.
   */
  turn(message: string, options?: GuidedTurnOptions): Promise<GuidedTurn>;
}
