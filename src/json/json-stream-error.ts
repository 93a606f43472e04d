/**
 * The typed error of the streaming JSON parser.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";

/** Marks a `JsonStreamError` across copies of the package, as `PlankitError`'s marker does for every plankit error. */
const marker = Symbol.for("plankit.json-stream-error");

/** Why the streaming JSON parser stopped. */
export type JsonStreamErrorCode = "json-syntax" | "json-depth" | "json-token-size";

/**
 * A streaming JSON parser error: the text is not JSON (`json-syntax`), nests
 * deeper than `maxDepth` (`json-depth`), or holds a single token larger than
 * `maxTokenSize` (`json-token-size`).
 *
 * @example
 * ```ts
 * try { createJsonStreamParser({ strict: true }).write("[1,,2]"); }
 * catch (error) { if (error instanceof JsonStreamError) console.log(error.offset, error.expected); }
 * ```
 */
export class JsonStreamError extends PlankitError {
  declare readonly code: JsonStreamErrorCode;
  /** Zero-based offset, in UTF-16 code units from the start of the whole text, of the offending character (the text's length for an incomplete text). */
  readonly offset: number;
  /** What the parser expected at `offset`, e.g. `"," or "]"`. */
  readonly expected: string;
  private readonly [marker] = true;

  /**
   * @param code - `json-syntax`, `json-depth` or `json-token-size`.
   * @param message - what went wrong, where, and which character.
   * @param offset - offset of the offending character in the whole text.
   * @param expected - what the parser expected there.
   */
  constructor(code: JsonStreamErrorCode, message: string, offset: number, expected: string) {
    super(code, message);
    this.name = "JsonStreamError";
    this.offset = offset;
    this.expected = expected;
  }

  /**
   * Whether a value is a `JsonStreamError`, even one from another copy of
   * the package: unlike the inherited `PlankitError.isInstance`, another
   * plankit error does not pass.
   *
   * @param value - anything caught.
   * @returns `true` when `value` carries the JSON stream error's marker.
   *
   * @example
   * ```ts
   * JsonStreamError.isInstance(new PlankitError("timeout", "slow")); // false
   * ```
   */
  static override isInstance(value: unknown): value is JsonStreamError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
