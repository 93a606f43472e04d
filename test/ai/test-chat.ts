/**
 * An AI SDK chat with its state in plain arrays, as a framework binding
 * keeps it, for driving transports the way `useChat` does.
 *
 * @module
 */
import { AbstractChat, type ChatState, type ChatStatus, type UIMessage } from "ai";
import { expect } from "vitest";

/** A chat whose messages and status the test reads. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(
    init: ConstructorParameters<typeof AbstractChat<UIMessage>>[0] extends infer T ? Omit<T, "state"> : never,
  ) {
    const state: ChatState<UIMessage> = {
      status: "ready" as ChatStatus,
      error: undefined,
      messages: [],
      pushMessage: (message) => void state.messages.push(message),
      popMessage: () => void state.messages.pop(),
      replaceMessage: (index, message) => void (state.messages[index] = message),
      snapshot: (thing) => structuredClone(thing),
    };
    super({ ...init, state });
  }
  /** The chat's messages. */
  get all(): UIMessage[] {
    return this.state.messages;
  }
  /** The chat's status. */
  get current(): ChatStatus {
    return this.state.status;
  }
  /** The chat's error, when its status is `error`. */
  get failure(): Error | undefined {
    return this.state.error;
  }
}

/**
 * Waits until a condition holds, yielding to the event loop in between.
 *
 * @param condition - what to wait for.
 */
export async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 2000 && !condition(); turn++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(condition()).toBe(true);
}
