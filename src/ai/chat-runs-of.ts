/**
 * The runs chat transports keep while they wait for approval answers,
 * shared by every transport over the same runtime.
 *
 * @module
 */
import type { RuntimeClock } from "../shared/runtime-clock.ts";

/** What the registry needs of a run: how to stop it, and when it ends. */
export interface HeldRun {
  readonly done?: Promise<unknown>;
  abort?(reason?: string): void;
}

/** A run kept for a chat's next request, and how many of its events the chat already has. */
export interface HeldChatRun<RUN extends HeldRun> {
  readonly run: RUN;
  readonly sent: number;
}

/** How long a held run may wait, and on which clock; no `ms`: until it ends. */
interface HoldLimit {
  readonly ms: number | undefined;
  readonly clock: RuntimeClock;
}

/** The held runs of one runtime, by chat and assistant message. */
export interface ChatRuns<RUN extends HeldRun> {
  /**
   * Keeps a run for the chat's next request about the message, until it is
   * taken, it ends, or the limit passes (then it is aborted).
   *
   * @param chatId - the chat.
   * @param messageId - the assistant message the run writes.
   * @param held - the run and the count of events sent.
   * @param limit - how long it may wait.
   * @param reason - the abort reason when the limit passes.
   */
  hold(chatId: string, messageId: string, held: HeldChatRun<RUN>, limit: HoldLimit, reason: string): void;
  /**
   * Takes the run kept for the message out of the registry.
   *
   * @param chatId - the chat.
   * @param messageId - the assistant message.
   * @returns the run, or `undefined` when none waits.
   */
  take(chatId: string, messageId: string): HeldChatRun<RUN> | undefined;
  /**
   * Aborts and lets go of the chat's runs whose messages the chat no longer
   * has (regenerated, or cut from its history): nothing can answer them.
   *
   * @param chatId - the chat.
   * @param messageIds - the ids of the messages the chat has.
   * @param reason - the abort reason.
   */
  dropAllBut(chatId: string, messageIds: ReadonlySet<string>, reason: string): void;
}

interface Entry {
  readonly held: HeldChatRun<HeldRun>;
  readonly clock: RuntimeClock;
  timer?: unknown;
}

/**
 * One map of held runs per runtime object, by chat id, then message id.
 * Held weakly, so a runtime that is dropped takes its runs along; a
 * transport is often made anew on every render of a UI component, so the
 * waiting runs cannot live in it.
 */
const registries = new WeakMap<object, Map<string, Map<string, Entry>>>();

/**
 * The held runs of a runtime, shared by every transport made for it.
 *
 * @param runtime - the runtime object the transports were made with.
 * @returns its registry.
 *
 * @example
 * ```ts
 * const runs = chatRunsOf<ChatRun>(runtime);
 * const held = runs.take(chatId, message.id);
 * ```
 */
export function chatRunsOf<RUN extends HeldRun>(runtime: object): ChatRuns<RUN> {
  let found = registries.get(runtime);
  if (found === undefined) {
    found = new Map();
    registries.set(runtime, found);
  }
  const chats = found;
  /** Removes the entry if it is still the one kept for the message; `true` when it was. */
  const remove = (chatId: string, messageId: string, entry: Entry): boolean => {
    const messages = chats.get(chatId);
    if (messages?.get(messageId) !== entry) return false;
    messages.delete(messageId);
    if (messages.size === 0) chats.delete(chatId);
    if (entry.timer !== undefined) entry.clock.clearTimeout(entry.timer);
    return true;
  };
  return {
    hold(chatId, messageId, held, limit, reason) {
      const earlier = chats.get(chatId)?.get(messageId);
      // One run per message: one held before is replaced, and nothing could answer it any more.
      if (earlier !== undefined && remove(chatId, messageId, earlier) && earlier.held.run !== held.run)
        earlier.held.run.abort?.(reason);
      const entry: Entry = { held, clock: limit.clock };
      let messages = chats.get(chatId);
      if (messages === undefined) {
        messages = new Map();
        chats.set(chatId, messages);
      }
      messages.set(messageId, entry);
      const release = (): void => void remove(chatId, messageId, entry);
      held.run.done?.then(release, release);
      if (limit.ms !== undefined) {
        entry.timer = limit.clock.setTimeout(() => {
          if (remove(chatId, messageId, entry)) held.run.abort?.(reason);
        }, limit.ms);
      }
    },
    take(chatId, messageId) {
      const entry = chats.get(chatId)?.get(messageId);
      if (entry === undefined) return undefined;
      remove(chatId, messageId, entry);
      return entry.held as HeldChatRun<RUN>;
    },
    dropAllBut(chatId, messageIds, reason) {
      for (const [messageId, entry] of chats.get(chatId) ?? []) {
        if (!messageIds.has(messageId) && remove(chatId, messageId, entry)) entry.held.run.abort?.(reason);
      }
    },
  };
}
