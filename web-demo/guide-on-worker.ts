/**
 * One guided turn on the Worker.
 *
 * @module
 */
import type { DecisionState } from "../src/index.ts";
import type { GuideStreamEvent } from "./guide-event.ts";
import { readServerSentEvents } from "./read-server-sent-events.ts";
import type { RunOnWorkerOptions } from "./run-on-worker.ts";

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
export async function* guideOnWorker(message: string, state: DecisionState, options: RunOnWorkerOptions = {}): AsyncGenerator<GuideStreamEvent> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (options.token !== undefined && options.token !== "") headers["authorization"] = `Bearer ${options.token}`;
  const init: RequestInit = { method: "POST", headers, body: JSON.stringify({ message, state }) };
  if (options.signal !== undefined) init.signal = options.signal;
  const response = await fetch(new URL("/v1/guide", options.baseUrl ?? location.href), init);
  if (!response.ok || response.body === null) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = (await response.json()) as { detail?: string };
      if (typeof problem.detail === "string") detail = `${response.status}: ${problem.detail}`;
    } catch {
      // Not problem details: keep the status line.
    }
    throw new Error(`The Worker refused the message (${detail})`);
  }
  for await (const event of readServerSentEvents(response.body, options.signal)) {
    yield JSON.parse(event.data) as GuideStreamEvent;
  }
}
