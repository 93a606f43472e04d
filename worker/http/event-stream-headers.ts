/**
 * The headers of the Worker's event streams.
 *
 * @module
 */

/**
 * The headers every event stream is sent with: the media type, no caching
 * or transforming by proxies, and no buffering by nginx-style proxies (so
 * each event reaches the client as it is written).
 */
export const eventStreamHeaders: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};
