/**
 * What the guided conversation panel consumes.
 *
 * @module
 */
import type { GuidedEvent } from "../src/decide.ts";
import type { ModelEvent, StreamErrorEvent } from "./demo-event.ts";

/** The guide's playbook, as `POST /v1/guide` announces it before the turn. */
export interface PlaybookEvent {
  type: "playbook";
  id?: string;
  name?: string;
  phases: { id: string; description?: string; checkpoints: string[] }[];
}

/**
 * One event of a guided turn on the Worker: the model, the playbook, a turn
 * event, or a stream error.
 *
 * @example
 * ```ts
 * for await (const event of guideOnWorker("to Tokyo", {})) if (event.type === "turn-end") state = event.state;
 * ```
 */
export type GuideStreamEvent = ModelEvent | PlaybookEvent | StreamErrorEvent | GuidedEvent;
