/**
 * A `TransformStream` from text to completed root-array elements.
 *
 * @module
 */
import { createJsonStreamParser, type JsonStreamParserOptions } from "./create-json-stream-parser.ts";

/**
 * Transforms a stream of text into the elements of its root JSON array, each
 * enqueued the moment its text is complete. An invalid text (strict) or a
 * text with no JSON value errors the stream.
 *
 * @example
 * ```ts
 * const steps = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new JsonElementStream());
 * for await (const step of steps) console.log(step);
 * ```
 */
export class JsonElementStream extends TransformStream<string, unknown> {
  /**
   * @param options - parser options; see {@link createJsonStreamParser}.
   */
  constructor(options: JsonStreamParserOptions = {}) {
    const parser = createJsonStreamParser(options);
    super({
      transform(chunk, controller) {
        for (const element of parser.write(chunk)) controller.enqueue(element);
      },
      flush() {
        parser.end();
      },
    });
  }
}
