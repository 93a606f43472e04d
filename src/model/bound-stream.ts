/**
 * A stream that cannot stall forever.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { abortError } from "../shared/abort-error.ts";
import { clampTimerMs } from "../shared/clamp-timer-ms.ts";
import type { RuntimeClock } from "../shared/runtime-clock.ts";

/** The time limits of one model call (or any stream). */
export interface ModelTimeouts {
  /** The longest wait for the next part (the first one included), in ms. */
  idleMs: number;
  /** The longest the whole call may take, in ms. */
  totalMs: number;
}

/** A model that sends nothing for a minute, or takes five, has stalled. */
export const defaultModelTimeouts: Readonly<ModelTimeouts> = { idleMs: 60_000, totalMs: 300_000 };

/**
 * Passes a stream's items through while bounding the waits: nothing for
 * `idleMs`, or the stream still going after `totalMs`, ends it with a
 * `timeout` error and closes the source stream. The run's signal ends the
 * wait too, with its reason.
 *
 * @param parts - the source stream (a model's parts, a planner's events).
 * @param timeouts - the limits.
 * @param clock - the timers.
 * @param what - what the call is for, for the error ("Reflection").
 * @param signal - ends the wait with its reason when it fires.
 * @param busyAt - when the source was last busy elsewhere, given the time
 *   now (a planner waiting for its steps' outcomes is busy): idle time counts
 *   from the later of that and the last item.
 * @returns the same items.
 * @throws PlankitError `timeout` naming the call and the limit.
 *
 * @example
 * ```ts
 * for await (const part of boundStream(model.stream(request), { idleMs: 60_000, totalMs: 300_000 }, systemClock, "Integration", signal)) …
 * ```
 */
export async function* boundStream<T>(
  parts: AsyncIterable<T>,
  timeouts: ModelTimeouts,
  clock: RuntimeClock,
  what: string,
  signal: AbortSignal | undefined,
  busyAt?: (now: number) => number,
): AsyncGenerator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  const startedAt = clock.now();
  let exhausted = false;
  try {
    for (;;) {
      const left = timeouts.totalMs - (clock.now() - startedAt);
      const idle = Math.min(timeouts.idleMs, Math.max(0, left));
      const message =
        idle < timeouts.idleMs
          ? `${what} timed out: the model call took longer than ${timeouts.totalMs} ms`
          : `${what} timed out: the model sent nothing for ${timeouts.idleMs} ms`;
      let timer: unknown;
      let onAbort: (() => void) | undefined;
      const timeout = new Promise<never>((_, reject) => {
        const expire = (): void => {
          const quiet = busyAt === undefined ? idle : clock.now() - busyAt(clock.now());
          if (quiet < idle) timer = clock.setTimeout(expire, clampTimerMs(idle - quiet, idle));
          else reject(new PlankitError("timeout", message));
        };
        timer = clock.setTimeout(expire, clampTimerMs(idle, idle));
        if (signal !== undefined) {
          onAbort = (): void => reject(abortError(signal, what));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }
      });
      let next: IteratorResult<T>;
      try {
        next = await Promise.race([iterator.next(), timeout]);
      } finally {
        clock.clearTimeout(timer);
        if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
      }
      if (next.done === true) {
        exhausted = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!exhausted && iterator.return !== undefined) void Promise.resolve(iterator.return()).catch(() => undefined);
  }
}
