/**
 * Why a lenient JSON parser gave up on a value it had begun.
 *
 * @module
 */
import type { JsonStreamParser } from "../json/create-json-stream-parser.ts";
import { JsonStreamError } from "../json/json-stream-error.ts";

/**
 * The limit a lenient parser hit inside a value, if any: a lenient parser
 * never fails on syntax, but nesting deeper than `maxDepth` or a token longer
 * than `maxTokenSize` stops it — and what the value held is lost, which a
 * reader must say rather than read on past it as if nothing was there.
 * Ends the parser: call it only on one whose value is given up.
 *
 * @param parser - a lenient parser whose value was rejected.
 * @param base - where the parser's text starts in the whole text, so the offset counts from the whole text's start.
 * @returns the parser's message (`Nesting is deeper than maxDepth (512) at offset 40`), or `undefined`.
 *
 * @example
 * ```ts
 * if (parser.status === "rejected") readLimitFailure(parser, 0); // "Nesting is deeper than maxDepth (512) at offset 546"
 * ```
 */
export function readLimitFailure(parser: JsonStreamParser, base: number): string | undefined {
  try {
    parser.end();
  } catch (error) {
    if (JsonStreamError.isInstance(error) && error.code !== "json-syntax")
      return error.message.replace(/ at offset \d+$/u, ` at offset ${base + error.offset}`);
  }
  return undefined;
}
