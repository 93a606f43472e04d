/**
 * One guided turn on the Worker.
 *
 * @module
 */
import type { DecisionState } from "../src/decide.ts";
import type { GuideStreamEvent } from "./guide-event.ts";
import { postEventStream, type WorkerCallOptions } from "./post-event-stream.ts";

/**
 * Posts `{ message, state }` to `POST /v1/guide` and yields the streamed
 * events (`model` and `playbook` first, `turn-end` last with the reply and
 * the new state to send with the next message).
 *
 * @param message - what the user said.
 * @param state - the state of the last `turn-end` (`{}` to start).
 * @param options - token, abort signal and base URL.
 * @returns the events.
 * @throws Error with the problem details' `detail` when the Worker refuses the request.
 *
 * @example
 * ```ts
 * for await (const event of guideOnWorker("I'd like to go to Tokyo", {})) console.log(event.type);
 * ```
 */
export function guideOnWorker(
  message: string,
  state: DecisionState,
  options: WorkerCallOptions = {},
): AsyncGenerator<GuideStreamEvent> {
  return postEventStream<GuideStreamEvent>("/v1/guide", { message, state }, options);
}
