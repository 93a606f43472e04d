/**
 * A clock for the run parts' tests: time moves only when a test advances it,
 * and timers fire in the order they fall due.
 *
 * @module
 */
import type { RuntimeClock } from "../../../src/shared/runtime-clock.ts";

/** A clock whose time moves only when a test advances it. */
export interface FakeClock extends RuntimeClock {
  /** Moves time on by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void;
  /** How many timers are set and not yet fired or cleared. */
  readonly timers: number;
}

/**
 * Creates a {@link FakeClock} starting at `start`.
 *
 * @param start - the time now.
 * @returns the clock.
 */
export function createFakeClock(start = 0): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const timer of timers)
          if (timer[1].at <= until && (due === undefined || timer[1].at < due[1].at)) due = timer;
        if (due === undefined) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = until;
    },
    get timers() {
      return timers.size;
    },
  };
}
