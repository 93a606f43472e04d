/**
 * Words and short texts for a step, shared by the views.
 *
 * @module
 */
import type { StepState, StepStatus } from "../events/run-state.ts";

/** How each status reads. */
const statusWords: Record<StepStatus, string> = {
  planned: "planned",
  running: "running",
  retrying: "retrying",
  succeeded: "done",
  failed: "failed",
  skipped: "skipped",
};

/**
 * Whether a step was skipped because a person said no (not because nobody
 * answered in time).
 *
 * @param step - the step.
 * @returns `true` for a step denied by a decision.
 */
export function isDeniedByPerson(step: StepState): boolean {
  return step.skip?.code === "denied" && step.approval?.by !== "timeout";
}

/**
 * A step's status in words: those of {@link statusWords}, except that a step
 * a person denied reads `denied`, their choice rather than a failure.
 *
 * @param step - the step.
 * @returns the words.
 */
export function describeStatus(step: StepState): string {
  return step.status === "skipped" && isDeniedByPerson(step) ? "denied" : statusWords[step.status];
}

/**
 * What a step does, in a few words: its tool, `model` for an `llm` step, `reply` for the reply.
 *
 * @param step - the step.
 * @returns the name.
 */
export function stepName(step: StepState): string {
  const planned = step.step as { type: string; name?: string };
  if (planned.type === "tool") return planned.name ?? "tool";
  return planned.type === "llm" ? "model" : planned.type;
}

/**
 * The arguments a step runs (or will run) with: those it started with, else
 * those a person approved (edited ones included), else those planned; the
 * prompt or text of `llm` and reply steps.
 *
 * @param step - the step.
 * @returns the value to show.
 */
export function stepArguments(step: StepState): unknown {
  if (step.input !== undefined) return step.input;
  if (step.approval !== undefined) return step.approval.arguments;
  const planned = step.step as { arguments?: unknown; prompt?: unknown; text?: unknown };
  return planned.arguments ?? planned.prompt ?? planned.text;
}

/**
 * A value as one line of text.
 *
 * @param value - any JSON value.
 * @returns a string as it is, anything else as JSON.
 */
export function toLine(value: unknown): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return (text ?? "").replace(/\s+/gu, " ");
}

/**
 * What became of a step, in words: its error, why it was skipped, its approval.
 *
 * @param step - the step.
 * @returns the note, or `""`.
 */
export function stepNote(step: StepState): string {
  if (step.status === "failed" && step.error !== undefined) return step.error.message;
  if (step.status === "skipped" && isDeniedByPerson(step)) {
    const reason = step.approval?.reason;
    return `You denied it${reason === undefined ? "" : `: ${reason}`}`;
  }
  if (step.status === "skipped" && step.skip !== undefined) return step.skip.reason;
  if (step.status === "retrying" && step.error !== undefined)
    return `attempt ${step.attempts} failed: ${step.error.message}`;
  const approval = step.approval;
  if (approval?.status === "requested") return "waits for approval";
  if (approval?.status === "denied" && step.status !== "skipped")
    return `denied${approval.reason === undefined ? "" : `: ${approval.reason}`}`;
  return "";
}
