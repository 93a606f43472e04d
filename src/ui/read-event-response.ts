/**
 * Reading run events from a `Response` or a `ReadableStream`.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { describeHttpFailure } from "./describe-http-failure.ts";
import { type RunEventFormat, readRunEvents } from "./read-run-events.ts";

/**
 * Reads the events of a response or stream of SSE or JSONL. A response's
 * content type decides the format unless `format` says it
 * (`text/event-stream` is SSE; `ndjson`, `jsonl` or `json-seq` types are
 * JSON Lines); otherwise the first character does.
 *
 * @param source - the response, or the stream of bytes or text.
 * @param format - how the events are written.
 * @param onEvent - called for each event.
 * @param signal - cancels the body when it fires.
 * @returns when the body ended.
 * @throws PlankitError `invalid-options` for a response that is not a success, naming its URL and status; what `readRunEvents` throws.
 *
 * @example
 * ```ts
 * await readEventResponse(await fetch("/v1/run", { method: "POST", body }), "auto", apply, signal);
 * ```
 */
export async function readEventResponse(
  source: Response | ReadableStream<Uint8Array | string>,
  format: RunEventFormat,
  onEvent: (event: RuntimeEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  if (source instanceof ReadableStream) return readRunEvents(source, format, { onEvent }, signal);
  if (!source.ok)
    // A response does not say how it was asked for (often a POST), so it is named by its URL alone.
    throw new PlankitError("invalid-options", await describeHttpFailure("", source.url || "the response", source));
  if (source.body === null) return;
  const type = source.headers.get("content-type") ?? "";
  const chosen =
    format !== "auto"
      ? format
      : type.startsWith("text/event-stream")
        ? "sse"
        : /ndjson|jsonl|json-seq/u.test(type)
          ? "jsonl"
          : "auto";
  return readRunEvents(source.body, chosen, { onEvent }, signal);
}
