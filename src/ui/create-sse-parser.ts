/**
 * A push parser for Server-Sent Events text.
 *
 * @module
 */

/** One dispatched Server-Sent Events message. */
interface SseParserMessage {
  /** The last `id:` seen so far (it persists across messages, as in `EventSource`). */
  id: string | undefined;
  /** The `event:` field, `"message"` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/** A parser fed with decoded text. */
export interface SseParser {
  /**
   * Parses more text; dispatches every message it completes.
   *
   * @param text - the next piece of the stream, split anywhere.
   */
  feed(text: string): void;
  /** Forgets a message cut off by the end of a stream (a reconnect starts clean). */
  reset(): void;
}

/** What the parser reports. */
export interface SseParserHandlers {
  /** A complete message with data. */
  onMessage(message: SseParserMessage): void;
  /** A `retry:` field, in ms. */
  onRetry?(ms: number): void;
}

/**
 * Creates a Server-Sent Events parser that knows nothing of streams: lines end
 * with CR, LF or CRLF (also when split between two `feed` calls), `:` lines
 * are comments, one leading space of a value is dropped, a blank line
 * dispatches the message and a message without data is dropped.
 *
 * @param handlers - called for each message and `retry:` field.
 * @returns the parser.
 *
 * @example
 * ```ts
 * const parser = createSseParser({ onMessage: (message) => console.log(message.event, message.data) });
 * parser.feed("event: ping\ndata: {}\n\n");
 * ```
 */
export function createSseParser(handlers: SseParserHandlers): SseParser {
  let pending = "";
  let skipLineFeed = false;
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  const line = (text: string): void => {
    if (text === "") {
      if (data.length > 0) handlers.onMessage({ id, event: event === "" ? "message" : event, data: data.join("\n") });
      event = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/u.test(value)) handlers.onRetry?.(Number(value));
  };
  return {
    feed(text) {
      let start = 0;
      if (skipLineFeed && text.startsWith("\n")) start = 1;
      skipLineFeed = false;
      for (let index = start; index < text.length; index++) {
        const char = text.charCodeAt(index);
        if (char !== 10 && char !== 13) continue;
        line(pending + text.slice(start, index));
        pending = "";
        if (char === 13) {
          if (index + 1 === text.length) skipLineFeed = true;
          else if (text.charCodeAt(index + 1) === 10) index++;
        }
        start = index + 1;
      }
      pending += text.slice(start);
    },
    reset() {
      pending = "";
      skipLineFeed = false;
      event = "";
      data = [];
    },
  };
}
