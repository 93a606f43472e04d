/**
 * Reading run events from a byte or text stream of SSE or JSONL.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { createSseParser } from "./create-sse-parser.ts";

/** How a stream's events are written: Server-Sent Events, JSON Lines, or decided by its first character. */
export type RunEventFormat = "sse" | "jsonl" | "auto";

/** What {@link readRunEvents} reports. */
export interface RunEventHandlers {
  /** An event, with its SSE `id:` when it had one. */
  onEvent(event: RuntimeEvent, id: string | undefined): void;
  /** A `retry:` hint of the server, in ms. */
  onRetry?(ms: number): void;
}

/**
 * Parses one JSON text as a run event.
 *
 * @param text - the JSON.
 * @param where - where it came from, for the error message.
 * @returns the event.
 * @throws PlankitError `json-syntax` naming `where` when it is not JSON or not an object with a string `type`.
 */
function parseEvent(text: string, where: string): RuntimeEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlankitError(
      "json-syntax",
      `${where} is not JSON: ${String(error)} (${JSON.stringify(text.slice(0, 80))})`,
      { cause: error },
    );
  }
  if (typeof value !== "object" || value === null || typeof (value as { type?: unknown }).type !== "string") {
    throw new PlankitError(
      "json-syntax",
      `${where} is not a run event (an object with a string "type"): ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
  return value as RuntimeEvent;
}

/**
 * Reads run events from a stream until it ends, in whichever pieces it comes
 * (a UTF-8 character or an SSE line may be split between chunks). With
 * `auto`, text starting with `{` is JSON Lines, anything else SSE.
 *
 * @param body - bytes or text.
 * @param format - how the events are written.
 * @param handlers - called for each event.
 * @param signal - cancels the stream when it fires.
 * @returns when the stream ended; a message cut off at its end is dropped.
 * @throws PlankitError `json-syntax` for a line or message that is not an event; whatever the stream throws.
 *
 * @example
 * ```ts
 * await readRunEvents(response.body!, "sse", { onEvent: (event) => console.log(event.type) });
 * ```
 */
export async function readRunEvents(
  body: ReadableStream<Uint8Array | string>,
  format: RunEventFormat,
  handlers: RunEventHandlers,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let chosen: "sse" | "jsonl" | undefined = format === "auto" ? undefined : format;
  let line = "";
  let lineNumber = 0;
  let messageNumber = 0;
  const sse = createSseParser({
    onMessage: (message) =>
      handlers.onEvent(
        parseEvent(
          message.data,
          `Server-sent event ${++messageNumber}${message.id === undefined ? "" : ` (id ${message.id})`}`,
        ),
        message.id,
      ),
    ...(handlers.onRetry === undefined ? {} : { onRetry: handlers.onRetry }),
  });
  const jsonlLine = (text: string): void => {
    lineNumber++;
    if (text.trim() !== "") handlers.onEvent(parseEvent(text, `Line ${lineNumber} of the JSONL stream`), undefined);
  };
  const feed = (text: string): void => {
    if (chosen === undefined) {
      const first = text.trimStart();
      if (first === "") {
        line += text;
        return;
      }
      chosen = first.startsWith("{") ? "jsonl" : "sse";
      text = line + text;
      line = "";
    }
    if (chosen === "sse") {
      sse.feed(text);
      return;
    }
    const parts = (line + text).split("\n");
    line = parts.pop() ?? "";
    for (const part of parts) jsonlLine(part.endsWith("\r") ? part.slice(0, -1) : part);
  };
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => {});
  if (signal?.aborted === true) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      feed(typeof value === "string" ? value : decoder.decode(value, { stream: true }));
    }
    feed(decoder.decode());
    if (chosen === "jsonl" && line.trim() !== "") jsonlLine(line);
  } catch (error) {
    // A bad event or a failed read: the rest of the stream is not wanted.
    await reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}
