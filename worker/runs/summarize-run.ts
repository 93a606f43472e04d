/**
 * A run as `GET /v1/runs/:id` reports it.
 *
 * @module
 */
import type { RunEndReason, RunState, RuntimeErrorInfo, RuntimeUsage } from "../../src/events.ts";
import type { RunRow } from "./run-log.ts";
import type { RunMode } from "./run-record.ts";

/** A run as `GET /v1/runs/:id` reports it: the log's facts and the state replayed from it. */
export interface RunSummary {
  id: string;
  mode: RunMode;
  query: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** The log holds `run-end`: no event will follow. */
  ended: boolean;
  /** Events in the log; the last event's SSE id. */
  events: number;
  /** Events sent again by a replaying execution (or after the end) and ignored. */
  replayedEvents: number;
  status: "idle" | "running" | "ended";
  reason?: RunEndReason;
  reply?: string;
  error?: RuntimeErrorInfo;
  usage: RuntimeUsage;
  steps: {
    id: string;
    type: string;
    tool?: string;
    status: string;
    attempts: number;
    error?: RuntimeErrorInfo;
    skip?: { code: string; reason: string };
  }[];
}

/**
 * The summary of a run: its log's facts and the state replayed from its events.
 *
 * @param row - the run's row in the log.
 * @param state - the state its logged events replay to.
 * @returns the summary.
 *
 * @example
 * ```ts
 * const summary = summarizeRun(log.row(runId), replay(log.runtimeEvents(runId)));
 * ```
 */
export function summarizeRun(row: RunRow, state: RunState): RunSummary {
  const summary: RunSummary = {
    id: row.id,
    mode: row.mode === "session" ? "session" : "durable",
    query: row.query,
    createdAt: row.created_at,
    ended: row.ended === 1,
    events: row.last_seq,
    replayedEvents: row.replayed,
    status: state.status,
    usage: state.usage,
    steps: state.steps.map((step) => ({
      id: step.step.id,
      type: step.step.type,
      ...(step.step.type === "tool" ? { tool: step.step.name } : {}),
      status: step.status,
      attempts: step.attempts,
      ...(step.error === undefined ? {} : { error: step.error }),
      ...(step.skip === undefined ? {} : { skip: step.skip }),
    })),
  };
  if (state.reason !== undefined) summary.reason = state.reason;
  if (state.reply !== undefined) summary.reply = state.reply.text;
  if (state.error !== undefined) summary.error = state.error;
  return summary;
}
