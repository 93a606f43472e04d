/**
 * The state of a run, as rebuilt from its events.
 *
 * @module
 */
import type { FinishReason } from "../model/plan-model.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { RunEndReason, RuntimeErrorInfo, RuntimeUsage, StepSkipCode } from "./runtime-event.ts";

/**
 * Where a step stands: `planned` (not started), `running`, `retrying` (an
 * attempt failed, another follows), then one of the terminal states
 * `succeeded`, `failed` or `skipped`.
 */
export type StepStatus = "planned" | "running" | "retrying" | "succeeded" | "failed" | "skipped";

/** One step of a run. */
export interface StepState {
  step: PlanStep;
  /** Position in the run's list of steps. */
  index: number;
  source: "plan" | "replan";
  /** May start while the plan still streams. */
  safe: boolean;
  status: StepStatus;
  /** Attempts started. */
  attempts: number;
  /** The resolved arguments or prompt of the latest attempt. */
  input?: unknown;
  /** Arguments a reflector changed. */
  arguments?: Record<string, unknown>;
  result?: unknown;
  cached?: boolean;
  /** The latest error. */
  error?: RuntimeErrorInfo;
  /** Why the step was skipped. */
  skip?: { code: StepSkipCode; reason: string };
  /** `t` of the first `step-start`. */
  startedAt?: number;
  /** `t` of the terminal event. */
  endedAt?: number;
  /** Its approval, once it was asked for: asked (`requested`), `approved` or `denied`. */
  approval?: StepApproval;
}

/** A step's approval as recorded. */
export interface StepApproval {
  status: "requested" | "approved" | "denied";
  /** The latest request that listed it. */
  requestId: string;
  mode: "plan" | "step";
  /** The arguments shown (as far as known), or those approved in their place. */
  arguments: Record<string, unknown>;
  /** The arguments that still waited on references when it was asked. */
  waiting: { pointer: string; reference: string }[];
  /** Why it was denied. */
  reason?: string;
  /** `caller` or `timeout`, once decided. */
  by?: "caller" | "timeout";
}

/** A reflector's verdict, as recorded. */
export interface ReflectionRecord {
  stepId: string;
  action: "retry" | "new_plan" | "abort";
  reason: string;
  arguments?: Record<string, unknown>;
  /** Why a `retry` was not followed (see `ReflectionEvent.refused`). */
  refused?: string;
}

/**
 * A run's state: what the live run exposes as `handle.state`, and what
 * `replay(events)` rebuilds from a log. Both come from the same reducer
 * (`createRunState`), so they agree.
 *
 * @example
 * ```ts
 * const state = await runtime.run("weather in Paris").done;
 * state.steps.filter((step) => step.status === "failed").map((step) => step.error?.message);
 * ```
 */
export interface RunState {
  runId: string | undefined;
  /** The user's request. */
  query: string | undefined;
  /** `idle` before the first event, `running`, then `ended` after `run-end`. */
  status: "idle" | "running" | "ended";
  plan: {
    /** The first plan stream ended. */
    done: boolean;
    clean?: boolean;
    finishReason?: FinishReason | "missing" | "error";
    fallback?: boolean;
  };
  /** Every step in the order it was planned. */
  steps: StepState[];
  issues: PlanIssue[];
  reflections: ReflectionRecord[];
  /** Re-plans applied. */
  replans: number;
  /**
   * The steps waiting for an approval decision now, in the order they were
   * asked: what an approval card shows. Empty when nothing waits.
   */
  awaitingApproval: string[];
  /** The answer as streamed so far: the `reply-delta` events joined (equal to `reply.text` once `reply` came). */
  replyDraft?: string;
  reply?: { text: string; source: "step" | "model" | "template"; stepId?: string };
  reason?: RunEndReason;
  error?: RuntimeErrorInfo;
  /** Counted from events while running; the `run-end` totals once the run ended. */
  usage: RuntimeUsage;
  durationMs?: number;
}
