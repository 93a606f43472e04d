/**
 * Reading a run's event stream in the Worker suites.
 *
 * @module
 */
import { expect } from "vitest";
import type { RuntimeEvent } from "../../src/index.ts";

/** One SSE message of a run's event stream. */
export interface Message {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/**
 * Reads SSE messages from a response until `stop` holds for the last one
 * (then disconnects) or the stream ends. Every block must be `id`, `event`,
 * `data`, or a comment.
 */
export async function readMessages(
  response: Response,
  stop: (message: Message) => boolean = () => false,
): Promise<Message[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: Message[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return messages;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(":")) continue;
      if (/^retry: \d+$/.test(block)) continue;
      const [id, event, data] = block.split("\n") as [string, string, string];
      expect(id).toMatch(/^id: \d+$/);
      expect(event).toMatch(/^event: [a-z-]+$/);
      expect(data).toMatch(/^data: \{/);
      const message = {
        id: Number(id.slice(4)),
        event: event.slice(7),
        data: JSON.parse(data.slice(6)) as Record<string, unknown>,
      };
      messages.push(message);
      if (stop(message)) {
        await reader.cancel();
        return messages;
      }
    }
  }
}

/** The runtime events among a run's messages (the `model` message left out). */
export function runtimeEvents(messages: readonly Message[]): RuntimeEvent[] {
  return messages
    .filter((message) => message.event !== "model")
    .map((message) => message.data as unknown as RuntimeEvent);
}
