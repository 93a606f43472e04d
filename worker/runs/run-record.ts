/**
 * What a session records about a run when it starts.
 *
 * @module
 */

/** How a run executes: in the session object, or on a Workflow. */
export type RunMode = "durable" | "session";

/** What `startRun` records about a run. */
export interface RunRecord {
  runId: string;
  mode: RunMode;
  query: string;
  /** The model, logged as the run's first event (`model`), as `/v1/run` streams it. */
  model: { name: string; provider: string };
}
