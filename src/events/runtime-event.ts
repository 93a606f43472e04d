/**
 * The events a run emits.
 *
 * @module
 */
import type { FinishReason } from "../model/plan-model.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";

/**
 * Why a run ended. The first that applies wins, in this order:
 *
 * - `aborted`: the caller's `AbortSignal` fired (or the consumer stopped iterating);
 * - `deadline`: the run's `budget.deadlineMs` passed;
 * - `budget`: a step, re-plan or model call was refused by a budget;
 * - `failed`: a step failed for good and no re-plan recovered from it, the
 *   plan was unclean and side-effecting steps were skipped, the planner
 *   threw, or a reflector chose `abort`;
 * - `completed`: every step succeeded (or was replaced by a re-plan).
 */
export type RunEndReason = "completed" | "failed" | "aborted" | "budget" | "deadline";

/**
 * Why a step was skipped:
 *
 * - `dependency-failed`: a step it references or depends on failed or was skipped;
 * - `unknown-dependency`: it names a step that does not exist;
 * - `cycle`: it waits, through its references, for itself (`s1 → s2 → s1`);
 * - `unsafe-plan`: it has side effects and the plan did not finish cleanly;
 * - `replaced`: a re-plan replaced it;
 * - `budget`: a budget ran out before it could start;
 * - `aborted`: the run was aborted, ran past its deadline, or a reflector stopped it;
 * - `denied`: a person denied its approval, or no decision came in time.
 */
export type StepSkipCode =
  | "dependency-failed"
  | "unknown-dependency"
  | "cycle"
  | "unsafe-plan"
  | "replaced"
  | "budget"
  | "aborted"
  | "denied";

/** An error, as plain JSON. */
export interface RuntimeErrorInfo {
  /**
   * A `PlankitError` code, or `"tool-error"` for anything a tool threw;
   * `"outcome-unknown"` when a durable executor found a side-effecting step
   * started before a restart with no stored outcome (it did not start it again).
   */
  code: string;
  /** The error message. */
  message: string;
}

/** What a run used so far. */
export interface RuntimeUsage {
  /** Model calls: planning, repairs, re-plans, `llm` steps, reflection and integration. */
  modelCalls: number;
  /** Tool calls that reached the registry (cache hits are not counted). */
  toolCalls: number;
  /** Tool results served from the cache. */
  cacheHits: number;
  /** Re-plans asked of the planner. */
  replans: number;
  /** Prompt tokens reported by the model. */
  inputTokens: number;
  /** Completion tokens reported by the model. */
  outputTokens: number;
}

/** Fields every event carries. */
export interface RuntimeEventBase {
  /** The run's id. */
  runId: string;
  /** Milliseconds since the run started. */
  t: number;
}

/** A planner stream starts: the first plan, a repair re-ask, or a re-plan. */
export interface PlanStartEvent extends RuntimeEventBase {
  type: "plan-start";
  kind: "plan" | "repair" | "replan";
  /** The user's request. */
  query: string;
  /** 1 for the first plan; counts repairs and re-plans separately. */
  attempt: number;
}

/** The planner's stream ended. */
export interface PlanEndEvent extends RuntimeEventBase {
  type: "plan-end";
  /** The model finished with `stop` and the whole plan validated. */
  clean: boolean;
  finishReason: FinishReason | "missing" | "error";
  /** The plan is the planner's fallback reply. */
  fallback: boolean;
  /** Steps accepted. */
  steps: number;
  /** The planner's model calls and tokens. */
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Set when the planner threw. */
  error?: RuntimeErrorInfo;
}

/** A validated step arrived (from the plan stream or a re-plan patch). */
export interface StepPlannedEvent extends RuntimeEventBase {
  type: "step-planned";
  step: PlanStep;
  /** Position in the run's list of steps. */
  index: number;
  source: "plan" | "replan";
  /** Whether the step may start while the plan still streams (read-only or idempotent tool, `llm` step). */
  safe: boolean;
}

/** The planner dropped or repaired a step. */
export interface StepIssueEvent extends RuntimeEventBase {
  type: "step-issue";
  issue: PlanIssue;
  action: "dropped" | "repaired";
}

/** An attempt of a step starts. */
export interface StepStartEvent extends RuntimeEventBase {
  type: "step-start";
  stepId: string;
  /** 1-based attempt number. */
  attempt: number;
  /** The tool name, for tool steps. */
  tool?: string;
  /** The resolved arguments (tool steps) or prompt (`llm` steps). */
  input?: unknown;
  /** The result comes from the cache. */
  cached: boolean;
}

/** A step succeeded: terminal. */
export interface StepEndEvent extends RuntimeEventBase {
  type: "step-end";
  stepId: string;
  attempt: number;
  result: unknown;
  durationMs: number;
  cached: boolean;
}

/** An attempt failed; terminal when `final` is true. */
export interface StepErrorEvent extends RuntimeEventBase {
  type: "step-error";
  stepId: string;
  attempt: number;
  error: RuntimeErrorInfo;
  /** No further attempt follows: the step failed. */
  final: boolean;
  durationMs: number;
}

/** A step will be attempted again after `delayMs`. */
export interface StepRetryEvent extends RuntimeEventBase {
  type: "step-retry";
  stepId: string;
  /** The attempt that follows. */
  attempt: number;
  delayMs: number;
  /** `policy`: the retry budget; `reflection`: a reflector asked for it. */
  cause: "policy" | "reflection";
  /** Arguments the reflector changed, merged into the step's arguments. */
  arguments?: Record<string, unknown>;
}

/** A step will not run: terminal. */
export interface StepSkippedEvent extends RuntimeEventBase {
  type: "step-skipped";
  stepId: string;
  code: StepSkipCode;
  /** What happened, in words. */
  reason: string;
}

/** A reflector judged a failed step. */
export interface ReflectionEvent extends RuntimeEventBase {
  type: "reflection";
  stepId: string;
  action: "retry" | "new_plan" | "abort";
  reason: string;
  arguments?: Record<string, unknown>;
  /** Why the runtime did not follow a `retry`: the step's tool may have acted and may not be repeated. The step then fails, as after `new_plan`. */
  refused?: string;
}

/** The planner patched the plan after a failure. */
export interface ReplanEvent extends RuntimeEventBase {
  type: "replan";
  /** 1-based re-plan number. */
  attempt: number;
  /** The failed steps that caused it. */
  failed: string[];
  /** The pending steps the patch replaced (each also gets `step-skipped`). */
  replaced: string[];
  /** The ids of the new steps (each also gets `step-planned`). */
  added: string[];
  /** New step ids the runtime changed because they were taken: `{ planned: assigned }`. */
  renamed: Record<string, string>;
}

/**
 * A piece of the answer, as it is written: the reply step's text with each
 * reference filled in once its step has ended, or the model's integrated
 * answer token by token. The deltas of a run, joined in order, are the
 * `reply` event's text; `reply` follows them.
 */
export interface ReplyDeltaEvent extends RuntimeEventBase {
  type: "reply-delta";
  /** The text added to the reply. */
  delta: string;
}

/** One step an approval request lists. */
export interface ApprovalRequestStep {
  stepId: string;
  tool: string;
  /** The step's `description`, else the tool's. */
  description: string;
  /**
   * The arguments as far as they are known: references to steps that
   * succeeded are filled in; the others are still written as `{{id.path}}`.
   */
  arguments: Record<string, unknown>;
  /** The arguments that still wait on references: a JSON Pointer into `arguments` and the reference as written. */
  waiting: { pointer: string; reference: string }[];
  /** `plan`: this approval covers the step; `step`: it asks again if the resolved arguments differ from these. */
  mode: "plan" | "step";
}

/**
 * The run waits for a person: every listed step (and what depends on it)
 * holds until `RunHandle.approve` decides it, the request times out
 * (`approvalTimeoutMs`: denied) or the run ends. Read-only steps that need
 * no approval keep running meanwhile.
 */
export interface ApprovalRequestEvent extends RuntimeEventBase {
  type: "approval-request";
  /** Unique within the run: `a1`, `a2`, … */
  requestId: string;
  /** What wrote the steps: the plan (or a native tool-call turn), a re-plan patch, or `step` for a step asking again before it starts. */
  source: "plan" | "replan" | "step";
  /** The turn of the plan or the re-plan number (1 for a `step` request). */
  attempt: number;
  /** Every step of the source that needs approval, in plan order. */
  steps: ApprovalRequestStep[];
  /** When the request times out, in ms after it, if it does. */
  timeoutMs?: number;
}

/** A step's approval was decided. */
export interface ApprovalDecisionEvent extends RuntimeEventBase {
  type: "approval-decision";
  requestId: string;
  stepId: string;
  approved: boolean;
  /** Why, when given (always set for a timeout). */
  reason?: string;
  /** Arguments a person approved instead of the planned ones. */
  arguments?: Record<string, unknown>;
  /** `caller`: through `RunHandle.approve`; `timeout`: no decision came within `approvalTimeoutMs`. */
  by: "caller" | "timeout";
}

/** The answer to the user. */
export interface ReplyEvent extends RuntimeEventBase {
  type: "reply";
  text: string;
  /** `step`: the plan's reply step; `model`: the model integrated the results; `template`: a fixed rendering. */
  source: "step" | "model" | "template";
  stepId?: string;
}

/** The run ended: always the last event. */
export interface RunEndEvent extends RuntimeEventBase {
  type: "run-end";
  reason: RunEndReason;
  usage: RuntimeUsage;
  durationMs: number;
  /** The error behind a `failed` run, when there is one. */
  error?: RuntimeErrorInfo;
}

/**
 * One event of a run: plain JSON with a stable `type`, the run id and `t`,
 * the milliseconds since the run started. Every step announced by
 * `step-planned` gets exactly one terminal event: `step-end`, a `step-error`
 * with `final: true`, or `step-skipped`. `run-end` is always last.
 *
 * @example
 * ```ts
 * for await (const event of runtime.run("weather in Paris?")) {
 *   if (event.type === "step-end") console.log(event.stepId, event.result);
 * }
 * ```
 */
export type RuntimeEvent =
  | PlanStartEvent
  | PlanEndEvent
  | StepPlannedEvent
  | StepIssueEvent
  | StepStartEvent
  | StepEndEvent
  | StepErrorEvent
  | StepRetryEvent
  | StepSkippedEvent
  | ReflectionEvent
  | ReplanEvent
  | ApprovalRequestEvent
  | ApprovalDecisionEvent
  | ReplyDeltaEvent
  | ReplyEvent
  | RunEndEvent;

/** The `type` strings of {@link RuntimeEvent}. */
export type RuntimeEventType = RuntimeEvent["type"];
