import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const origin = "https://plankit.test";

describe("a run id that no run can have", () => {
  it("is 404 unknown-run on every run route, naming the id and the form of one", async () => {
    const ids = ["run.1", "✓", "run-0123456789abcdef0123456789abcdef-a b", `run-${"f".repeat(101)}`];
    for (const id of ids) {
      const path = `/v1/runs/${encodeURIComponent(id)}`;
      const requests = [
        new Request(`${origin}${path}`),
        new Request(`${origin}${path}/events`),
        new Request(`${origin}${path}/cancel`, { method: "POST" }),
        new Request(`${origin}${path}/approvals`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ decisions: [{ stepId: "s1", approved: true }] }),
        }),
      ];
      for (const request of requests) {
        const response = await SELF.fetch(request);
        expect(response.status, `${request.method} ${path}`).toBe(404);
        const problem = (await response.json()) as { code: string; detail: string };
        expect(problem.code).toBe("unknown-run");
        expect(problem.detail).toContain(`No run ${id}`);
        expect(problem.detail).toContain("run- and 32 hex digits");
      }
    }
    // A well-formed id of no run needs no lesson in the form.
    const unknown = await SELF.fetch(`${origin}/v1/runs/run-0123456789abcdef0123456789abcdef`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toBe("No run run-0123456789abcdef0123456789abcdef");
  });

  it("keeps 405 with Allow for a wrong method on a run route", async () => {
    const response = await SELF.fetch(`${origin}/v1/runs/run.1`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
