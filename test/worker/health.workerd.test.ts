import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("worker routes", () => {
  it("answers GET /health with { ok: true }", async () => {
    const response = await SELF.fetch("https://plankit.test/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("answers unknown routes with a problem+json 404", async () => {
    const response = await SELF.fetch("https://plankit.test/nowhere", { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 404, title: "Not Found" });
  });
});
