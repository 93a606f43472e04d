/**
 * The reducer from runtime events to run state.
 *
 * @module
 */

import type { RunState, StepState } from "./run-state.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/** A run state and the function that folds events into it. */
export interface RunStateReducer {
  /** The state so far (updated in place). */
  readonly state: RunState;
  /**
   * Folds one event into the state.
   *
   * @param event - the next event of the run.
   * @returns the state.
   */
  apply(event: RuntimeEvent): RunState;
}

/**
 * Creates an empty run state and its reducer. The live run and `replay`
 * both use it, so a state rebuilt from a log equals the state the run had.
 * Events naming a step that was never planned are ignored.
 *
 * @returns the reducer.
 *
 * @example
 * ```ts
 * const reducer = createRunState();
 * for (const event of events) reducer.apply(event);
 * reducer.state.steps.map((step) => step.status);
 * ```
 */
export function createRunState(): RunStateReducer {
  const state: RunState = {
    runId: undefined,
    query: undefined,
    status: "idle",
    plan: { done: false },
    steps: [],
    issues: [],
    reflections: [],
    replans: 0,
    awaitingApproval: [],
    usage: { modelCalls: 0, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 },
  };
  const byId = new Map<string, StepState>();
  const apply = (event: RuntimeEvent): RunState => {
    if (state.runId === undefined) state.runId = event.runId;
    if (state.status === "idle") state.status = "running";
    switch (event.type) {
      case "plan-start":
        state.query ??= event.query;
        break;
      case "plan-end":
        if (!state.plan.done) {
          state.plan = { done: true, clean: event.clean, finishReason: event.finishReason, fallback: event.fallback };
        }
        state.usage.modelCalls += event.modelCalls;
        state.usage.inputTokens += event.inputTokens;
        state.usage.outputTokens += event.outputTokens;
        break;
      case "step-planned": {
        const entry: StepState = {
          step: event.step,
          index: event.index,
          source: event.source,
          safe: event.safe,
          status: "planned",
          attempts: 0,
        };
        byId.set(event.step.id, entry);
        state.steps.push(entry);
        break;
      }
      case "step-issue":
        state.issues.push(event.issue);
        break;
      case "reflection": {
        const record: RunState["reflections"][number] = {
          stepId: event.stepId,
          action: event.action,
          reason: event.reason,
        };
        if (event.arguments !== undefined) record.arguments = event.arguments;
        if (event.refused !== undefined) record.refused = event.refused;
        state.reflections.push(record);
        break;
      }
      case "approval-request":
        for (const item of event.steps) {
          const target = byId.get(item.stepId);
          if (target === undefined) continue;
          target.approval = {
            status: "requested",
            requestId: event.requestId,
            mode: item.mode,
            arguments: item.arguments,
            waiting: item.waiting,
          };
          if (!state.awaitingApproval.includes(item.stepId)) state.awaitingApproval.push(item.stepId);
        }
        break;
      case "replan":
        state.replans = event.attempt;
        state.usage.replans = event.attempt;
        break;
      case "reply-delta":
        state.replyDraft = (state.replyDraft ?? "") + event.delta;
        break;
      case "reply":
        state.reply =
          event.stepId === undefined
            ? { text: event.text, source: event.source }
            : { text: event.text, source: event.source, stepId: event.stepId };
        break;
      case "run-end":
        state.status = "ended";
        state.reason = event.reason;
        state.usage = { ...event.usage };
        state.durationMs = event.durationMs;
        if (event.error !== undefined) state.error = event.error;
        break;
      default: {
        const step = byId.get(event.stepId);
        if (step !== undefined) applyToStep(state, step, event);
      }
    }
    return state;
  };
  return { state, apply };
}

/** The events that change one planned step. */
type StepEvent = Extract<
  RuntimeEvent,
  { type: "step-start" | "step-end" | "step-error" | "step-retry" | "step-skipped" | "approval-decision" }
>;

/** Folds an event about one step into that step's state (and the run's counters). */
function applyToStep(state: RunState, step: StepState, event: StepEvent): void {
  switch (event.type) {
    case "step-start":
      step.status = "running";
      step.attempts = event.attempt;
      step.startedAt ??= event.t;
      if (event.input !== undefined) step.input = event.input;
      if (event.cached) state.usage.cacheHits++;
      else if (event.tool !== undefined) state.usage.toolCalls++;
      else if (step.step.type === "llm") state.usage.modelCalls++;
      break;
    case "step-end":
      step.status = "succeeded";
      step.result = event.result;
      step.cached = event.cached;
      step.endedAt = event.t;
      break;
    case "step-error":
      step.error = event.error;
      step.status = event.final ? "failed" : "retrying";
      if (event.final) step.endedAt = event.t;
      break;
    case "step-retry":
      step.status = "retrying";
      if (event.arguments !== undefined) step.arguments = { ...step.arguments, ...event.arguments };
      break;
    case "step-skipped":
      stopWaiting(state, event.stepId);
      step.status = "skipped";
      step.skip = { code: event.code, reason: event.reason };
      step.endedAt = event.t;
      break;
    case "approval-decision": {
      const approval: StepState["approval"] = {
        status: event.approved ? "approved" : "denied",
        requestId: event.requestId,
        mode: step.approval?.mode ?? "step",
        arguments: event.arguments ?? step.approval?.arguments ?? {},
        waiting: step.approval?.waiting ?? [],
        by: event.by,
      };
      if (event.reason !== undefined) approval.reason = event.reason;
      step.approval = approval;
      stopWaiting(state, event.stepId);
      break;
    }
  }
}

/** Takes a step off the list of steps waiting for a person. */
function stopWaiting(state: RunState, stepId: string): void {
  const at = state.awaitingApproval.indexOf(stepId);
  if (at !== -1) state.awaitingApproval.splice(at, 1);
}
