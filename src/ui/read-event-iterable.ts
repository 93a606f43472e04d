/**
 * Reading run events from an async iterable until it ends or a signal fires.
 *
 * @module
 */
import type { RuntimeEvent } from "../events/runtime-event.ts";

/**
 * Reads every event of an async iterable. When `signal` fires it stops at
 * once, even if the iterator never answers again, and returns the iterator
 * unless `keepOpen` (a `RunHandle`'s iterator aborts the run when returned
 * early, and closing a view must not stop the run).
 *
 * @param events - the events.
 * @param onEvent - called for each.
 * @param signal - stops reading.
 * @param keepOpen - leave the iterator as it is when stopped.
 * @returns when the iterable ended.
 * @throws the signal's reason when it fired; whatever the iterator throws.
 *
 * @example
 * ```ts
 * await readEventIterable(runtime.run("hi"), (event) => console.log(event.type), signal, true);
 * ```
 */
export async function readEventIterable(
  events: AsyncIterable<RuntimeEvent>,
  onEvent: (event: RuntimeEvent) => void,
  signal: AbortSignal,
  keepOpen: boolean,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      reject(signal.reason);
      if (!keepOpen) void Promise.resolve(iterator.return?.()).catch(() => {});
    };
  });
  aborted.catch(() => {});
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done === true) return;
      onEvent(next.value);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
