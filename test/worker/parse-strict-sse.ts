import { expect } from "vitest";

/** One Server-Sent Events message as the Worker frames it. */
export interface SseMessage {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/**
 * Parses an SSE body strictly: a `retry:` hint first, then every message is
 * exactly `id`, `event`, `data` lines, then a blank line; the only other
 * block allowed is the heartbeat, a bare `:` comment.
 */
export function parseStrictSse(text: string): SseMessage[] {
  expect(text).toMatch(/^retry: \d+\n\n/);
  expect(text.endsWith("\n\n")).toBe(true);
  return text
    .replace(/^retry: \d+\n\n/, "")
    .slice(0, -2)
    .split("\n\n")
    .filter((block) => block !== ":")
    .map((block) => {
      const lines = block.split("\n");
      expect(lines).toHaveLength(3);
      const [id, event, data] = lines as [string, string, string];
      expect(id).toMatch(/^id: \d+$/);
      expect(event).toMatch(/^event: [a-z-]+$/);
      expect(data).toMatch(/^data: /);
      return { id: id.slice(4), event: event.slice(7), data: JSON.parse(data.slice(6)) as Record<string, unknown> };
    });
}
