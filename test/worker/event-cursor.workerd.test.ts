import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readMessages } from "./read-messages.ts";

const origin = "https://plankit.test";

async function startWaitingRun(): Promise<{ id: string; last: number }> {
  const started = await SELF.fetch(`${origin}/v1/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "Save a note titled bank with the text pay rent", durable: false }),
  });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  const head = await readMessages(
    await SELF.fetch(`${origin}/v1/runs/${id}/events`),
    (message) => message.event === "approval-request",
  );
  return { id, last: head.at(-1)?.id ?? 0 };
}

describe("a resume cursor past the end of a live run's log", () => {
  it("is refused with 400 naming the cursor and the last event, by Last-Event-ID and by ?after=", async () => {
    const { id, last } = await startWaitingRun();
    const cases: [RequestInit, string][] = [
      [{ headers: { "last-event-id": String(last + 5) } }, `Last-Event-ID ${last + 5}`],
      [{}, `The after parameter ${last + 5}`],
    ];
    for (const [init, named] of cases) {
      const query = init.headers === undefined ? `?after=${last + 5}` : "";
      const response = await SELF.fetch(`${origin}/v1/runs/${id}/events${query}`, init);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe("invalid-last-event-id");
      expect(problem.detail).toContain(named);
      expect(problem.detail).toContain(`the last event of run ${id} is ${last}`);
    }
    // The cursor of the last event itself waits for what comes next.
    const atEnd = await SELF.fetch(`${origin}/v1/runs/${id}/events?after=${last}`);
    expect(atEnd.status).toBe(200);
    await atEnd.body?.cancel();
    const cancelled = await SELF.fetch(`${origin}/v1/runs/${id}/cancel`, { method: "POST" });
    expect(cancelled.status).toBe(200);
    // Once the run has ended, any cursor at or past its end is 204: an EventSource stops there.
    const ended = await SELF.fetch(`${origin}/v1/runs/${id}/events?after=${last + 50}`);
    expect(ended.status).toBe(204);
  }, 30_000);
});

describe("an empty resume cursor", () => {
  it("reads as none: the stream starts at the first event, by Last-Event-ID and by ?after=", async () => {
    const { id, last } = await startWaitingRun();
    for (const [query, headers] of [
      ["", { "last-event-id": "" }],
      ["?after=", {}],
      ["?after=%20", { "last-event-id": " " }],
    ] as const) {
      const response = await SELF.fetch(`${origin}/v1/runs/${id}/events${query}`, { headers });
      expect(response.status).toBe(200);
      const head = await readMessages(response, (message) => message.event === "approval-request");
      expect(head[0]?.id).toBe(1);
      expect(head.at(-1)?.id).toBe(last);
    }
    const cancelled = await SELF.fetch(`${origin}/v1/runs/${id}/cancel`, { method: "POST" });
    expect(cancelled.status).toBe(200);
  }, 30_000);
});
