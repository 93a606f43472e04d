/**
 * plankit/ui — a run's state for any front end: a framework-free store fed by
 * run events, SSE or JSONL streams, or a run's event-stream URL, and custom
 * elements that render it (defined on import where custom elements exist).
 *
 * @module
 */
export { createRunStore, type RunConnection, type RunHandleLike, type RunSource, type RunStore, type RunStoreOptions } from "./ui/create-run-store.ts";
export type { RunEventFormat } from "./ui/read-run-events.ts";
