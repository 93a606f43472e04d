/**
 * plankit/events — the event model of a run: event and state types, the
 * reducer and `replay`, JSONL and server-sent-event encoders and decoders,
 * and stream helpers. Each event type is here; their union, `RuntimeEvent`,
 * is exported by `plankit`, the front door.
 *
 * @module
 */

export { createRunState, type RunStateReducer } from "./events/create-run-state.ts";
export type { Dialog, DialogMessage } from "./events/dialog.ts";
export { encodeJsonl } from "./events/encode-jsonl.ts";
export { encodeSse } from "./events/encode-sse.ts";
export { formatSse, formatSseComment, type SseMessage } from "./events/format-sse.ts";
export { JsonlEncoderStream } from "./events/jsonl-encoder-stream.ts";
export { parseJsonl } from "./events/parse-jsonl.ts";
export { replay } from "./events/replay.ts";
export type { ReflectionRecord, RunState, StepApproval, StepState, StepStatus } from "./events/run-state.ts";
export type {
  ApprovalDecisionEvent,
  ApprovalRequestEvent,
  ApprovalRequestStep,
  PlanEndEvent,
  PlanStartEvent,
  ReflectionEvent,
  ReplanEvent,
  ReplyDeltaEvent,
  ReplyEvent,
  RunEndEvent,
  RunEndReason,
  RuntimeErrorInfo,
  RuntimeEventBase,
  RuntimeEventType,
  RuntimeUsage,
  StepEndEvent,
  StepErrorEvent,
  StepIssueEvent,
  StepPlannedEvent,
  StepRetryEvent,
  StepSkipCode,
  StepSkippedEvent,
  StepStartEvent,
} from "./events/runtime-event.ts";
export { SseEncoderStream } from "./events/sse-encoder-stream.ts";
export { toJsonl } from "./events/to-jsonl.ts";
export { toReadableStream } from "./events/to-readable-stream.ts";
