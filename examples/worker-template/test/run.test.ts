import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

/** The `data:` of each Server-Sent Event. */
function readEvents(text: string): { type: string; [key: string]: unknown }[] {
  return text
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => JSON.parse(line.slice(6)));
}

describe("POST /v1/run", () => {
  it("plans over the two tools and streams the run", async () => {
    const response = await SELF.fetch("https://example.test/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "What is 36.6 °C in °F?" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = readEvents(await response.text());
    const ends = events.filter((event) => event.type === "step-end");
    expect(ends.map((event) => [event["stepId"], event["result"]])).toEqual([
      ["s1", { fahrenheit: expect.closeTo(97.88, 6) }],
      ["s2", { value: 97.9 }],
      ["s3", "36.6 °C is 97.9 °F"],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  it("refuses a body without a query, another method and another path", async () => {
    const bad = await SELF.fetch("https://example.test/v1/run", { method: "POST", body: "{}" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "query must be a non-empty string" });
    expect((await SELF.fetch("https://example.test/v1/run")).status).toBe(405);
    expect((await SELF.fetch("https://example.test/")).status).toBe(404);
  });
});
