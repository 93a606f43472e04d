/**
 * Idempotency keys for a run's events.
 *
 * @module
 */

/**
 * Creates the function that names each event of one execution of a run.
 * A step's terminal event (`step-end`, `step-skipped`, a final
 * `step-error`) is keyed by the step alone, so a step never gets two
 * whatever attempt number an execution gives it. Any other event is keyed
 * by its type, step id, attempt and kind, and how many events with those
 * same fields came before it in this execution. Every execution of the
 * same run (a Workflow replay re-running from stored steps) emits each
 * step's events in the same order, so a logical event gets the same key
 * each time — even when parallel steps interleave differently. A
 * `reply-delta` is keyed by where its text starts in the reply
 * (`reply-delta@<offset>`), so the log can tell which part of the reply a
 * replay's pieces cover however the model split them (see `RunLog.append`).
 *
 * @returns the keyer; call it once per event, in order.
 *
 * @example
 * ```ts
 * const keyOf = createEventKeyer();
 * keyOf({ type: "step-start", stepId: "s1", attempt: 1 }); // "step-start:s1:1::1"
 * keyOf({ type: "step-end", stepId: "s1", attempt: 1 }); // "terminal:s1:1"
 * keyOf({ type: "reply-delta", delta: "Paris" }); // "reply-delta@0"
 * ```
 */
export function createEventKeyer(): (event: { type: string; [member: string]: unknown }) => string {
  const counts = new Map<string, number>();
  let replyOffset = 0;
  return (event) => {
    if (event.type === "reply-delta") {
      const offset = replyOffset;
      replyOffset += typeof event["delta"] === "string" ? event["delta"].length : 0;
      return `reply-delta@${offset}`;
    }
    const field = (value: unknown): string =>
      typeof value === "string" || typeof value === "number" ? String(value) : "";
    const step = event["step"];
    const stepId =
      field(event["stepId"]) ||
      field(typeof step === "object" && step !== null ? (step as { id?: unknown }).id : undefined);
    const terminal =
      event.type === "step-end" ||
      event.type === "step-skipped" ||
      (event.type === "step-error" && event["final"] === true);
    const base = terminal
      ? `terminal:${stepId}`
      : `${event.type}:${stepId}:${field(event["attempt"])}:${field(event["kind"])}`;
    const count = (counts.get(base) ?? 0) + 1;
    counts.set(base, count);
    return `${base}:${count}`;
  };
}
