/**
 * The one Server-Sent Events framer.
 *
 * @module
 */

/** One Server-Sent Events message. */
export interface SseMessage {
  /**
   * The payload; each of its lines becomes a `data:` line. Without it the
   * message only sets `id` or `retry` and no event reaches the client.
   */
  data?: string | undefined;
  /** The event name (`event:`), for `EventSource#addEventListener`; line breaks are removed. */
  event?: string | undefined;
  /** The message id (`id:`), which a reconnecting client sends back as `Last-Event-ID`; line breaks and NULs are removed. */
  id?: string | number | undefined;
  /** How long a client waits before reconnecting, in ms (`retry:`); a whole number ≥ 0. */
  retry?: number | undefined;
}

/**
 * Frames one Server-Sent Events message: `id:`, `event:`, `retry:`, one
 * `data:` line per line of the payload, and the blank line that ends it.
 * Every SSE stream of plankit — run events, the AI SDK's UI message stream,
 * Chat Completions chunks, the Worker's — is written with it.
 *
 * @param message - the fields.
 * @returns the message text.
 *
 * @example
 * ```ts
 * formatSse({ event: "reply", id: 4, data: '{"text":"hi"}' });
 * // 'id: 4\nevent: reply\ndata: {"text":"hi"}\n\n'
 * formatSse({ retry: 3000 }); // 'retry: 3000\n\n' (a reconnection hint, no event)
 * ```
 */
export function formatSse(message: SseMessage): string {
  let text = "";
  if (message.id !== undefined) text += `id: ${String(message.id).replace(/[\r\n\0]/gu, "")}\n`;
  if (message.event !== undefined) text += `event: ${message.event.replace(/[\r\n]/gu, "")}\n`;
  const retry = message.retry ?? -1;
  if (Number.isInteger(retry) && retry >= 0) text += `retry: ${retry}\n`;
  if (message.data !== undefined) for (const line of message.data.split(/\r\n|\r|\n/u)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * A Server-Sent Events comment: clients ignore it, so it keeps an idle
 * connection open through proxies without delivering anything.
 *
 * @param text - the comment; line breaks are removed.
 * @returns the comment line and the blank line after it.
 *
 * @example
 * ```ts
 * formatSseComment("keep-alive"); // ': keep-alive\n\n'
 * ```
 */
export function formatSseComment(text = ""): string {
  return `:${text === "" ? "" : ` ${text.replace(/[\r\n]/gu, "")}`}\n\n`;
}
