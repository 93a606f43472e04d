/**
 * A guided turn's events as an async iterable.
 *
 * @module
 */
import type { GuidedConversation, GuidedEvent, GuidedTurnOptions } from "../src/decide.ts";

/**
 * Runs one turn and yields its events as they happen, ending with
 * `turn-end`. A turn that fails still ends with `turn-end` (carrying the
 * error), so its rejection is not thrown again; only a failure before any
 * event (such as an unknown phase) is.
 *
 * @param conversation - the conversation.
 * @param message - the user's message.
 * @param options - the state and the abort signal of the turn.
 * @returns the events.
 * @example
 * ```ts
 * for await (const event of streamGuidedTurn(conversation, "to Tokyo", { state })) console.log(event.type);
 * ```
 */
export async function* streamGuidedTurn(
  conversation: GuidedConversation,
  message: string,
  options: Omit<GuidedTurnOptions, "onEvent"> = {},
): AsyncGenerator<GuidedEvent> {
  const queue: GuidedEvent[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let failure: { error: unknown } | undefined;
  const turn = conversation.turn(message, {
    ...options,
    onEvent: (event) => {
      queue.push(event);
      wake?.();
    },
  });
  turn.then(
    () => {
      settled = true;
      wake?.();
    },
    (error: unknown) => {
      settled = true;
      failure = { error };
      wake?.();
    },
  );
  let ended = false;
  for (;;) {
    const event = queue.shift();
    if (event !== undefined) {
      if (event.type === "turn-end") ended = true;
      yield event;
      continue;
    }
    if (settled) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure !== undefined && !ended) throw failure.error;
}
