/**
 * Making run ids.
 *
 * @module
 */

/**
 * Makes a run id, `run-<32 hex digits>` followed by `-<session>` when the
 * run belongs to a named session. The session is part of the id so that any
 * route given only the id finds the object that holds the run's log; the
 * id is also a valid Workflow instance id (at most 100 characters of
 * letters, digits, `-` and `_`).
 *
 * @param session - the session name (1–60 of `A-Z a-z 0-9 _ -`), if any.
 * @returns the id.
 *
 * @example
 * ```ts
 * createRunId("chat_42"); // "run-3f2a…-chat_42"
 * ```
 */
export function createRunId(session?: string): string {
  const hex = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  return session === undefined ? `run-${hex}` : `run-${hex}-${session}`;
}
