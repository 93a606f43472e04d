/**
 * What a planning run needs: model, prompt, catalog, limits and what is
 * already planned.
 *
 * @module
 */
import type { ModelTimeouts } from "../model/bound-stream.ts";
import type { PlanModel } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import type { ClarifyFunction } from "./build-clarification.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import type { PlannerUsage, ReplyDraft } from "./planner-event.ts";

/** Everything one planning run needs. */
export interface PlanAttemptsSetup {
  model: PlanModel;
  /** The prompt of the first call. */
  prompt: PlanPrompt;
  /** The whole catalog, compiled: steps are validated against it. */
  catalog: CompiledCatalog;
  /** The tools the prompt shows: their schemas are compiled while the first call waits for its first token. */
  shownTools?: readonly string[];
  /** The most steps the plan (or patch) may have, the reply included. */
  maxSteps: number;
  /** Re-ask once when the answer cannot be read or steps were dropped. */
  repair: boolean;
  /** Turn a step missing required arguments into a clarifying reply, with this text. */
  clarify: ClarifyFunction | undefined;
  /** The text of the fallback reply when the answer parsed but gave no usable step. */
  fallbackText: string;
  /** Steps already in the plan (re-planning: the completed ones): referable, never emitted or repeated. */
  known?: readonly PlanStep[];
  /** Ids that may be neither reused nor referenced (re-planning: the failed steps). */
  blockedIds?: readonly string[];
  /** The position of the first new step (its default id is `s<position + 1>`). */
  startPosition?: number;
  knowledgeBaseTool?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Updated in place; earlier calls (sketch mode's reasoning) may already be counted. */
  usage: PlannerUsage;
  /** The chain of thought of sketch mode, reported on `done`. */
  reasoning?: string | undefined;
  /** What the run is, for error messages ("Planning"). */
  what: string;
  /** The idle and total limits of each model call. */
  timeouts: ModelTimeouts;
  /** What the first call is for (`plan` or `replan`); a repair re-ask is `repair`. */
  purpose: "plan" | "replan";
  /** Receives the reply step's text as the first call writes it (see {@link PlanRequest.onReplyDraft}). */
  onReplyDraft?: ((draft: ReplyDraft) => void) | undefined;
}
