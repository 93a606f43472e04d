/**
 * Where a run is, as one value instead of a set of booleans.
 *
 * @module
 */

/**
 * The coordinator's phase:
 *
 * - `planning` — the first plan (and its repair) is streaming; ready steps already run;
 * - `executing` — the plan is complete; steps run until none is left;
 * - `replanning` — a re-plan call is out; nothing new is decided until it answers;
 * - `finishing` — every step ended: the reply, memory, `run-end`;
 * - `ended` — `run-end` was emitted; nothing happens any more.
 *
 * @example
 * ```ts
 * let phase: RunPhase = "planning";
 * ```
 */
export type RunPhase = "planning" | "executing" | "replanning" | "finishing" | "ended";
