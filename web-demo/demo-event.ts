/**
 * What the demo page consumes from either run mode.
 *
 * @module
 */
import type { RuntimeEvent } from "../src/index.ts";

/** Which model runs: the first event of both run modes (and of the Worker's streams). */
export interface ModelEvent {
  type: "model";
  name: string;
  provider: string;
}

/** A stream error reported by the Worker as a final `error` event. */
export interface StreamErrorEvent {
  type: "error";
  code: string;
  message: string;
}

/**
 * One event of a demo run: the model, a runtime event, or a stream error.
 *
 * @example
 * ```ts
 * for await (const event of runInBrowser(query)) if (event.type === "model") showModel(event.name);
 * ```
 */
export type DemoEvent = ModelEvent | StreamErrorEvent | RuntimeEvent;
