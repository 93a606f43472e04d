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
export interface HoldLimit {
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
}

interface Entry {
  readonly held: HeldChatRun<HeldRun>;
  readonly clock: RuntimeClock;
  timer?: unknown;
}

/**
 * One map of held runs per runtime object. Held weakly, so a runtime that is
 * dropped takes its map along; a transport is often made anew on every
 * render of a UI component, so the waiting runs cannot live in it.
 */
const registries = new WeakMap<object, Map<string, Entry>>();

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
  let entries = registries.get(runtime);
  if (entries === undefined) {
    entries = new Map();
    registries.set(runtime, entries);
  }
  const map = entries;
  const remove = (key: string, entry: Entry): boolean => {
    if (map.get(key) !== entry) return false;
    map.delete(key);
    if (entry.timer !== undefined) entry.clock.clearTimeout(entry.timer);
    return true;
  };
  return {
    hold(chatId, messageId, held, limit, reason) {
      const key = JSON.stringify([chatId, messageId]);
      const earlier = map.get(key);
      // A run already held for the message is replaced: nothing could answer it any more.
      if (earlier !== undefined && remove(key, earlier) && earlier.held.run !== held.run) earlier.held.run.abort?.(reason);
      const entry: Entry = { held, clock: limit.clock };
      map.set(key, entry);
      const release = (): void => void remove(key, entry);
      held.run.done?.then(release, release);
      if (limit.ms !== undefined) {
        entry.timer = limit.clock.setTimeout(() => {
          if (remove(key, entry)) held.run.abort?.(reason);
        }, limit.ms);
      }
    },
    take(chatId, messageId) {
      const key = JSON.stringify([chatId, messageId]);
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      remove(key, entry);
      return entry.held as HeldChatRun<RUN>;
    },
  };
}
