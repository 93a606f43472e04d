/**
 * The events a planner streams, and the requests it answers.
 *
 * @module
 */
import type { FinishReason, PlanModelUsage } from "../model/plan-model.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { CatalogSource } from "../tools/compile-catalog.ts";

/**
 * One event of {@link Planner.stream}:
 *
 * - `step`: a validated step, emitted as soon as its JSON closes;
 * - `issue`: a step was dropped, or repaired (e.g. turned into a clarifying reply);
 * - `repair`: a re-ask started, showing the model its output and the issues;
 * - `turn-end`: a model turn of a planner that works in turns (native tool
 *   calls) ended; when `clean`, every step streamed so far comes from a
 *   turn that finished cleanly and validated, so side-effecting ones among
 *   them may start;
 * - `done`: always last — the accepted steps, token usage, and whether the
 *   model finished cleanly (a `finish` part with reason `stop`).
 */
export type PlannerEvent =
  | { type: "step"; step: PlanStep; index: number }
  | { type: "issue"; issue: PlanIssue; action: "dropped" | "repaired" }
  | { type: "repair"; attempt: number; issues: PlanIssue[] }
  | { type: "turn-end"; turn: number; clean: boolean; finishReason: FinishReason | "missing" }
  | {
      type: "done";
      steps: PlanStep[];
      /** The model ended with `finish: "stop"` and the plan validated as a whole. */
      clean: boolean;
      /** The last model call's finish reason; `"missing"` when the stream ended without one. */
      finishReason: FinishReason | "missing";
      /** The plan is the fallback reply carrying the model's own text. */
      fallback: boolean;
      usage: PlannerUsage;
      /** Sketch mode: the chain of thought of the first call, which the plan was built from. */
      reasoning?: string;
    };

/** Model calls and tokens a planner used. */
export interface PlannerUsage extends PlanModelUsage {
  /** Number of model calls. */
  modelCalls: number;
}

/** A user profile, rendered into the system prompt (see `renderProfile`). */
export interface PlannerProfile {
  name: string;
  role: string;
  language?: string;
  goals?: string[];
  constraints?: string[];
}

/** What to plan for. */
export interface PlanRequest {
  /** The user's request. */
  query: string;
  /**
   * The tool catalog: in a protocol's shape (an MCP `tools/list` array, a
   * record `{ [name]: { description, input_schema } }`, …; a data set's
   * once read by `normalizeCatalog`), a `ToolRegistry`, or a catalog from
   * `compileCatalog`.
   */
  tools: CatalogSource;
  /** A profile object or a ready system prompt. */
  profile?: PlannerProfile | string;
  /** Extra context for the prompt (e.g. a goal from `understandRequest()`, memory). */
  context?: string;
  /**
   * Waits until the given steps have ended and tells what became of each. A
   * runtime passes it to planners that work in turns (`ToolCallPlanner`):
   * after a `turn-end`, the planner sends its steps'
   * outcomes back to the model, which may call more tools or answer.
   * Without it such a planner stops after one turn. Await only outcomes the
   * model will hear: the runtime leaves the steps awaited to the planner (no
   * re-plan for them, and their failures do not fail the run).
   *
   * @defaultValue none
   */
  awaitOutcomes?: (stepIds: readonly string[]) => Promise<StepOutcome[]>;
  /**
   * Receives the reply step's text while the model is still writing it,
   * each time it grew: a draft, not a step — the step may still turn out
   * invalid, cut off or replaced by a repair, and its text may differ. A
   * runtime that streams replies early (`replyStreaming: "early"`) uses it.
   * `LLMPlanner` reports the reply of its first planning call, in the JSON
   * shape its prompt asks for (`{"id": …, "type": "reply", "text": …}`),
   * until a step of the call has been dropped.
   *
   * @defaultValue none
   */
  onReplyDraft?: (draft: ReplyDraft) => void;
  /**
   * Receives the planner's model calls and tokens so far each time one of
   * its model turns ended, so a run that ends before the planner's `done`
   * (aborted, or a later turn failed) still counts what was used.
   * `ToolCallPlanner` reports it.
   *
   * @defaultValue none
   */
  onUsage?: (usage: PlannerUsage) => void;
  signal?: AbortSignal;
}

/** The reply step's text so far, as {@link PlanRequest.onReplyDraft} receives it. */
export interface ReplyDraft {
  /** The reply step's id. */
  id: string;
  /**
   * How many steps of the plan come before the reply (all already handed
   * out as `step` events): a runtime streams a draft only once it has seen
   * them all, so a planner wrapper that holds events back gets no draft
   * ahead of its steps.
   */
  index: number;
  /** Its text as written so far (every report extends the one before, unless the model's text was repaired). */
  text: string;
}

/** What became of a planned step, as {@link PlanRequest.awaitOutcomes} tells it. */
export type StepOutcome =
  | { id: string; status: "succeeded"; result: unknown }
  | { id: string; status: "failed"; error: string }
  | { id: string; status: "skipped"; reason: string };

/** A step that ran, with its result. */
export interface CompletedStep {
  step: PlanStep;
  result: unknown;
}

/** A step that failed, with its error message. */
export interface FailedStep {
  step: PlanStep;
  error: string;
}

/** What to re-plan: the steps done, the step that failed, and the steps not run. */
export interface ReplanRequest {
  query: string;
  /** The tool catalog, as in {@link PlanRequest}. */
  tools: CatalogSource;
  completed: CompletedStep[];
  failed: FailedStep[];
  remaining: PlanStep[];
  profile?: PlannerProfile | string;
  signal?: AbortSignal;
}
