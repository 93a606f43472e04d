/**
 * A native tool call's JSON arguments as they stream: complete the moment their root object closes.
 *
 * @module
 */
import { createJsonStreamParser, type JsonStreamParser } from "../json/create-json-stream-parser.ts";
import { isRecord } from "../shared/is-record.ts";

/** What {@link createStreamedCallArguments} returns. */
export interface StreamedCallArguments {
  /**
   * Adds a piece of the arguments.
   *
   * @param delta - the next characters.
   * @returns the arguments, once, when this piece closed their root object
   *   as plain JSON; `undefined` otherwise.
   */
  write(delta: string): Record<string, unknown> | undefined;
  /** Everything written so far. */
  readonly text: string;
}

/**
 * Follows a call's arguments as the model writes them. Providers such as
 * `@ai-sdk/openai` announce the end of every call only when the whole turn
 * ends; the arguments are complete earlier, the moment their root object
 * closes, and that is when the call may become a step.
 *
 * Only text that is plain JSON from its first character counts: a value the
 * lenient parser had to repair (prose before it, single quotes, a missing
 * comma) waits for the call's end, where it is read as a whole. Text after
 * the closing brace is kept, so the call's final reading sees it.
 *
 * @returns the tracker.
 *
 * @example
 * ```ts
 * const args = createStreamedCallArguments();
 * args.write('{"city":"Pa'); // undefined
 * args.write('ris"}'); // { city: "Paris" }
 * ```
 */
export function createStreamedCallArguments(): StreamedCallArguments {
  let text = "";
  let parser: JsonStreamParser | undefined = createJsonStreamParser({ prose: false });
  return {
    get text() {
      return text;
    },
    write(delta) {
      text += delta;
      if (parser === undefined) return undefined;
      try {
        parser.write(delta);
      } catch {
        parser = undefined;
        return undefined;
      }
      if (parser.status === "reading") return undefined;
      const closed = parser;
      // One answer per call: the parser is done either way.
      parser = undefined;
      if (closed.status !== "done" || closed.repairs.length > 0) return undefined;
      let value: unknown;
      try {
        value = closed.end();
      } catch {
        return undefined;
      }
      return isRecord(value) ? value : undefined;
    },
  };
}
