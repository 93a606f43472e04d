/**
 * The state the decision engine reads each turn.
 *
 * @module
 */
import * as v from "valibot";

/**
 * Schema of the per-turn state, for state that arrives as JSON. Unknown
 * top-level keys (attachments, history, …) are kept and ignored by the engine.
 *
 * - `profile`: facts about the user, addressed as `profile.<field>`.
 * - `data`: `{ <group>: { <leaf>: value } }`, addressed by the bare leaf name.
 * - `decisions`: choices the user confirmed, addressed as `decisions.<field>`.
 * - `current_task_id`: the current phase id; the first phase when absent.
 * - `force_skill`: run this skill now (a direct skill call); the caller clears it afterwards.
 * - `_query_mode`: a side question; only query skills of the playbook-wide allow-list run,
 *   and phases do not advance.
 *
 * @example
 * ```ts
 * const state = v.parse(DecisionStateSchema, JSON.parse(body));
 * ```
 */
export const DecisionStateSchema = v.looseObject({
  profile: v.optional(v.record(v.string(), v.unknown())),
  data: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
  decisions: v.optional(v.record(v.string(), v.unknown())),
  current_task_id: v.nullish(v.string()),
  force_skill: v.nullish(v.string()),
  _query_mode: v.nullish(v.boolean()),
});

/** The per-turn state: profile, data groups, decisions, current phase and the turn's flags. */
export type DecisionState = v.InferOutput<typeof DecisionStateSchema>;
