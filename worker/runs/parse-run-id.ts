/**
 * Reading run ids.
 *
 * @module
 */

const runIdPattern = /^run-([0-9a-f]{32})(?:-([A-Za-z0-9_-]{1,60}))?$/u;

/** A run id taken apart. */
export interface ParsedRunId {
  /** The whole id: also the Workflow instance id. */
  runId: string;
  /** The session (conversation) whose object holds the run's log: the one given, else the run id. */
  session: string;
}

/**
 * Reads a run id made by `createRunId`.
 *
 * @param id - the id from a URL.
 * @returns the id and its session, or `undefined` for anything else.
 *
 * @example
 * ```ts
 * parseRunId("run-3f2a…-chat_42")?.session; // "chat_42"
 * ```
 */
export function parseRunId(id: string): ParsedRunId | undefined {
  const match = runIdPattern.exec(id);
  if (match === null) return undefined;
  return { runId: id, session: match[2] ?? id };
}
