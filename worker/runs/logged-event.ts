/**
 * An event as the session log stores it.
 *
 * @module
 */

/**
 * One event sent to a session's log, with the key that makes the write
 * idempotent: the log keeps the first event of each key and ignores the
 * rest, so an execution that replays a run (a Workflow resuming after a
 * restart) re-sends its events without duplicating any.
 *
 * @example
 * ```ts
 * const item: LoggedEvent = { key: "step-end:s1:::1", event: { type: "step-end", stepId: "s1" } };
 * ```
 */
export interface LoggedEvent {
  /** Unique within the run for one logical event. */
  key: string;
  /** The event: a runtime event, or the `model` event that opens the log. */
  event: { type: string; [member: string]: unknown };
}
