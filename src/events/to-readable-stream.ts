/**
 * Runtime events as a web `ReadableStream`.
 *
 * @module
 */

/**
 * Wraps an async iterable (such as `runtime.run(…)`) in a `ReadableStream`
 * that pulls one value at a time. Cancelling the stream ends the iteration
 * (for a run, that aborts it).
 *
 * @param source - the values.
 * @returns a stream of the same values.
 *
 * @example
 * ```ts
 * toReadableStream(runtime.run(query)).pipeThrough(new SseEncoderStream());
 * ```
 */
export function toReadableStream<T>(source: AsyncIterable<T>): ReadableStream<T> {
  let iterator: AsyncIterator<T> | undefined;
  return new ReadableStream<T>({
    async pull(controller) {
      iterator ??= source[Symbol.asyncIterator]();
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await iterator?.return?.(reason);
    },
  });
}
