/**
 * Completed root-array elements from a stream of text.
 *
 * @module
 */
import { createJsonStreamParser, type JsonStreamParserOptions } from "./create-json-stream-parser.ts";

/** A source of text: an async iterable of strings or a `ReadableStream<string>`. */
export type TextSource = AsyncIterable<string> | ReadableStream<string>;

async function* iterate(source: TextSource): AsyncGenerator<string> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<string>;
    return;
  }
  // Not every runtime makes ReadableStream async-iterable (Safari), so read it by hand.
  const reader = (source as ReadableStream<string>).getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel();
    reader.releaseLock();
  }
}

/**
 * Yields each element of the root JSON array as soon as the text that
 * completes it arrives. Ending the loop early cancels the source.
 *
 * @param source - the text, in chunks of any size.
 * @param options - parser options; see {@link createJsonStreamParser}.
 * @returns the completed elements, in order. After the last one the text is
 *   ended: an incomplete text throws in strict mode; in lenient mode a
 *   half-written last element is never yielded.
 *
 * @example
 * ```ts
 * for await (const step of parseJsonStream(response.body!.pipeThrough(new TextDecoderStream()))) {
 *   console.log(step);
 * }
 * ```
 */
export async function* parseJsonStream(
  source: TextSource,
  options: JsonStreamParserOptions = {},
): AsyncGenerator<unknown, void> {
  const parser = createJsonStreamParser(options);
  for await (const chunk of iterate(source)) {
    yield* parser.write(chunk);
  }
  parser.end();
}
