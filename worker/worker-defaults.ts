/**
 * The Worker's settings that are not read from its environment, in one place.
 *
 * @module
 */
import type { AgentRuntimeOptions, RuntimeBudget } from "../src/index.ts";

/** Runtime settings a run starts with, before a fork's own. */
export type RuntimeDefaults = Pick<AgentRuntimeOptions, "maxConcurrency" | "timeoutMs" | "budget">;

/**
 * The Worker's defaults:
 *
 * - `bodyLimitBytes`: the largest body of a route that reads one
 *   (`body: "api"`; `PLANKIT_MAX_BODY_BYTES` overrides it, and the chat
 *   limit too);
 * - `chatBodyLimitBytes`: the largest body of a chat route
 *   (`body: "chat"`), whose body carries the conversation's history;
 * - `bodyMaxDepth`: how deep a request body may nest objects and arrays
 *   (deeper is a 400 naming where: thousands of levels fit in a small
 *   body, and would overflow the stack of the code that reads them);
 * - `chatModelId`: the one model Chat Completions clients see;
 * - `retryMs`: the `retry:` hint every event stream starts with, how long
 *   an `EventSource` waits before it reconnects;
 * - `heartbeatMs`: how often a whole (not streamed) chat completion's body
 *   writes a space while its run goes on;
 * - `streamHeartbeatMs`: how long an event stream of `/v1/*` may stay
 *   quiet before an SSE comment line (`:`) is written: a write to a client
 *   that left fails and cancels the stream, which aborts the run within
 *   about two heartbeats where nothing else reports the disconnect
 *   (`wrangler dev`);
 * - `runtime`: the settings of a run answered in the request (`startRun`,
 *   which denies at once each step a `policy` marks as needing approval:
 *   nobody can approve it there);
 * - `sessionRuntime`: the settings of a run in a session object
 *   (`POST /v1/runs` with `durable: false`), which may take longer — and
 *   waits up to 5 minutes for an approval (the run's deadline);
 * - `durableApprovalTimeoutMs`: how long a durable run waits for each
 *   approval decision — 7 days, across restarts of its Workflow instance
 *   (`step.waitForEvent`); then the steps still waiting are denied
 *   (`RunSetup.approvalTimeoutMs` sets another bound);
 * - `durableBudget`: a durable run's budget — the model and tool calls of
 *   `/v1/run`, counted across restarts; no deadline, since a run may wait
 *   days for a person (`RunSetup.budget` sets one, counted from the run's
 *   start);
 * - `cors`: how long browsers may cache a preflight, and the response
 *   headers scripts of other origins may read.
 */
export const workerDefaults = {
  bodyLimitBytes: 16_384,
  chatBodyLimitBytes: 131_072,
  bodyMaxDepth: 64,
  chatModelId: "plankit",
  retryMs: 3000,
  heartbeatMs: 1000,
  streamHeartbeatMs: 400,
  runtime: {
    maxConcurrency: 8,
    timeoutMs: 20_000,
    budget: { deadlineMs: 90_000, modelCalls: 12, toolCalls: 40 },
  } satisfies RuntimeDefaults,
  sessionRuntime: {
    maxConcurrency: 8,
    timeoutMs: 20_000,
    budget: { deadlineMs: 300_000, modelCalls: 12, toolCalls: 40 },
  } satisfies RuntimeDefaults,
  durableApprovalTimeoutMs: 7 * 24 * 60 * 60 * 1000,
  durableBudget: { modelCalls: 12, toolCalls: 40 } satisfies RuntimeBudget,
  cors: {
    maxAgeSeconds: 600,
    exposeHeaders: ["x-plankit-model", "x-plankit-model-provider", "x-plankit-run-id", "x-plankit-turn-id", "location"],
  },
} as const;
