import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const origin = "https://plankit.test";

/** The body gzipped, as a client that compresses its requests sends it. */
async function gzip(text: string): Promise<ArrayBuffer> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

describe("a compressed request body", () => {
  it("is a 415 naming the encoding and offering identity, not a complaint about UTF-8", async () => {
    for (const [path, body, read] of [
      ["/v1/run", { query: "What is 2+2?" }, (json: Record<string, string>) => json["detail"]],
      [
        "/v1/chat/completions",
        { messages: [{ role: "user", content: "What is 2+2?" }] },
        (json: Record<string, Record<string, string>>) => json["error"]?.["message"],
      ],
    ] as const) {
      const response = await SELF.fetch(`${origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: await gzip(JSON.stringify(body)),
      });
      expect(response.status).toBe(415);
      expect(response.headers.get("accept-encoding")).toBe("identity");
      const message = read((await response.json()) as never) ?? "";
      expect(message).toContain('Content-Encoding "gzip"');
      expect(message).not.toContain("UTF-8");
    }
  });

  it("passes when the encoding says identity", async () => {
    const response = await SELF.fetch(`${origin}/v1/plan`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "identity" },
      body: JSON.stringify({ query: "What is 2+2?" }),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});
