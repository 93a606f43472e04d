/**
 * A small Server-Sent Events reader for `fetch` response bodies.
 *
 * @module
 */

/** One Server-Sent Events message. */
export interface ServerSentEvent {
  /** The `id:` field, or `undefined`. */
  id: string | undefined;
  /** The `event:` field; `"message"` when absent. */
  event: string;
  /** The `data:` lines, joined with newlines. */
  data: string;
}

/**
 * Reads Server-Sent Events from a byte stream, per the HTML standard's
 * parsing rules: lines end with CR, LF or CRLF (even split across chunks),
 * `:` lines are comments, a field's value loses one leading space, `data`
 * lines join with newlines, and a blank line dispatches the message (one
 * without data is dropped). A message cut off by the end of the stream is dropped.
 *
 * @param body - the response body.
 * @param signal - stops reading (cancelling the body) when it fires.
 * @returns the messages, in order.
 *
 * @example
 * ```ts
 * const response = await fetch("/v1/run", { method: "POST", body });
 * for await (const message of readServerSentEvents(response.body!)) console.log(message.event, JSON.parse(message.data));
 * ```
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = (): void => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  let buffer = "";
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  let pendingCarriageReturn = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      let text = decoder.decode(value, { stream: true });
      // A CRLF split across chunks: the LF belongs to the CR already handled.
      // Any other text after the CR means the CR stood alone.
      if (pendingCarriageReturn && text !== "") {
        if (text.startsWith("\n")) text = text.slice(1);
        pendingCarriageReturn = false;
      }
      buffer += text;
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/u);
        if (end === -1) break;
        const lineBreak = buffer.startsWith("\r\n", end) ? 2 : 1;
        pendingCarriageReturn = buffer[end] === "\r" && lineBreak === 1 && end === buffer.length - 1;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + lineBreak);
        if (line === "") {
          if (data.length > 0) yield { id, event: event === "" ? "message" : event, data: data.join("\n") };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let fieldValue = colon === -1 ? "" : line.slice(colon + 1);
        if (fieldValue.startsWith(" ")) fieldValue = fieldValue.slice(1);
        if (field === "data") data.push(fieldValue);
        else if (field === "event") event = fieldValue;
        else if (field === "id" && !fieldValue.includes("\0")) id = fieldValue;
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}
