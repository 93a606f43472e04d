/**
 * Redacting a response body as it streams.
 *
 * @module
 */
import { formatSseComment } from "../../src/events.ts";
import type { Redactor } from "./redact-secrets.ts";

/** Options of {@link redactBody}. */
export interface RedactBodyOptions {
  /** Text to send first, as it is (an event stream's `retry:` hint). */
  prefix?: string;
  /**
   * For an event stream: while the source sends nothing for this long,
   * write an SSE comment line (`:\n\n`, which every client ignores), at a
   * message boundary only. A write is how a Worker learns that its client
   * left where nothing else tells it (`wrangler dev`): the write fails and
   * the body is cancelled, which aborts the run. `undefined` writes none.
   */
  heartbeatMs?: number;
}

/** An SSE comment line and the blank line after it: no field, no event. */
const heartbeatText = formatSseComment();

/**
 * Passes a body through `redactor`, chunk by chunk, so that no secret
 * reaches the client, even one split across chunks: a chunk's text is
 * sent at once except for a tail that could begin a secret, which waits
 * for the next chunk (or the end). One stream does this, the prefix and
 * the heartbeat, so a body is never wrapped twice. Reads the source only
 * as the client reads; a client that goes away cancels the source with
 * its reason.
 *
 * @param body - the body.
 * @param redactor - the secrets' redactor.
 * @param options - the prefix and the heartbeat.
 * @returns the redacted body.
 *
 * @example
 * ```ts
 * return new Response(redactBody(response.body, createRedactor([env.OPENAI_API_KEY])), response);
 * ```
 */
export function redactBody(
  body: ReadableStream<Uint8Array>,
  redactor: Redactor,
  options: RedactBodyOptions = {},
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const prefix = options.prefix ?? "";
  const heartbeatMs = options.heartbeatMs;
  let rest = "";
  /** The source's read in progress, kept across pulls when a heartbeat went out while it waited. */
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  /** Whether what was sent so far ends at a message boundary (a blank line), where a comment may go. */
  let atBoundary = true;
  let cancelled = false;
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, text: string): void => {
    controller.enqueue(encoder.encode(text));
    atBoundary = text.endsWith("\n\n");
  };
  /**
   * The next read of the source, or `undefined` when `heartbeatMs` passed first.
   *
   * @returns the read's result.
   */
  const next = async (): Promise<ReadableStreamReadResult<Uint8Array> | undefined> => {
    const read = (reading ??= reader.read());
    if (heartbeatMs === undefined || !atBoundary) return read;
    let stopBeat: () => void = () => undefined;
    const beat = new Promise<undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), heartbeatMs);
      stopBeat = () => clearTimeout(timer);
    });
    try {
      return await Promise.race([read, beat]);
    } finally {
      stopBeat();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (prefix !== "") send(controller, prefix);
    },
    async pull(controller) {
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array> | undefined;
        try {
          result = await next();
        } catch (error) {
          reading = undefined;
          // The source failed (or the client went away): the body fails with it.
          if (!cancelled) controller.error(error);
          return;
        }
        if (cancelled) return;
        if (result === undefined) {
          send(controller, heartbeatText);
          return;
        }
        reading = undefined;
        if (result.done) {
          const tail = redactor(rest + decoder.decode());
          if (tail !== "") send(controller, tail);
          controller.close();
          return;
        }
        const part = redactor.partial(rest + decoder.decode(result.value, { stream: true }));
        rest = part.rest;
        if (part.done !== "") {
          send(controller, part.done);
          // A tail held back is not yet sent: the boundary is where the sent text ends only when nothing waits.
          if (rest !== "") atBoundary = false;
          return;
        }
      }
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}
