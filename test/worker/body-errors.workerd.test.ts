import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { origin, post } from "./worker-requests.workerd.ts";

describe("a body the schema refuses: each error names the field and the value it got", () => {
  it("problem details name the value: a wrong type, an unknown tool, a number out of range, a string too long", async () => {
    const cases: [string, unknown, string, string][] = [
      ["/v1/run", { query: 42 }, "#/query", "query must be a string (got 42)"],
      ["/v1/run", { query: { text: "hi" } }, "#/query", "query must be a string (got an object)"],
      ["/v1/plan", { query: "x", tools: ["rm_rf"] }, "#/tools/0", '(got "rm_rf")'],
      [
        "/v1/run",
        { query: "x", tools: "calculator" },
        "#/tools",
        'tools must be an array of tool names (got "calculator")',
      ],
      ["/v1/run", { query: "x", maxSteps: 99 }, "#/maxSteps", "maxSteps must be at most 12 (got 99)"],
      ["/v1/run", { query: "x", maxSteps: 2.5 }, "#/maxSteps", "maxSteps must be an integer (got 2.5)"],
      ["/v1/run", { query: "x".repeat(2001) }, "#/query", "query must be at most 2000 characters (got 2001)"],
      ["/v1/runs", { query: "x", session: "a b" }, "#/session", '(got "a b")'],
      ["/v1/runs", { query: "x", durable: "no" }, "#/durable", 'durable must be true or false (got "no")'],
    ];
    for (const [path, body, pointer, detail] of cases) {
      const response = await post(path, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const problem = (await response.json()) as { detail: string; errors: { pointer: string; detail: string }[] };
      expect(problem.errors[0]?.pointer).toBe(pointer);
      expect(problem.errors[0]?.detail).toContain(detail);
      expect(problem.detail).toContain(detail);
    }
  });

  it("a profile object says what in it is wrong, not only that it is not a profile", async () => {
    const cases: [unknown, string][] = [
      [{ name: "Ada" }, "profile.role is required"],
      [{ name: 5, role: "analyst" }, "profile.name must be a string (got 5)"],
      [{ name: "Ada", role: "analyst", mood: "happy" }, 'unknown member "mood"'],
      [{ name: "Ada", role: "analyst", goals: ["ship", 7] }, "each goal must be a string (got 7)"],
    ];
    for (const [profile, detail] of cases) {
      const response = await post("/v1/run", { query: "x", profile });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { pointer: string; detail: string }[] };
      expect(problem.errors[0]?.pointer).toBe("#/profile");
      expect(problem.errors[0]?.detail).toContain("profile must be a string or an object with name and role");
      expect(problem.errors[0]?.detail).toContain(detail);
    }
    const number = (await (await post("/v1/run", { query: "x", profile: 5 })).json()) as { detail: string };
    expect(number.detail).toContain("profile must be a string or an object with name and role (got 5)");
    const list = (await (await post("/v1/run", { query: "x", profile: ["Ada"] })).json()) as { detail: string };
    expect(list.detail).toContain("profile must be a string or an object with name and role (got an array)");
  });

  it("the OpenAI route's message names the value too", async () => {
    const response = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: "hi" }],
      stream: "true",
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string; param: string } };
    expect(error.param).toBe("stream");
    expect(error.message).toContain('stream must be a boolean (got "true")');
  });

  it("a query that is not well-formed Unicode is refused before it is stored, naming the lone surrogate", async () => {
    for (const path of ["/v1/run", "/v1/runs"]) {
      const response = await SELF.fetch(`${origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"query":"What is 2+2? \\ud800"}',
      });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { pointer: string; detail: string }[] };
      expect(problem.errors[0]?.pointer).toBe("#/query");
      expect(problem.errors[0]?.detail).toContain("query must be well-formed Unicode text");
      expect(problem.errors[0]?.detail).toContain("\\ud800 at index 13");
    }
    // Paired surrogates (an emoji) are text like any other, and the run's summary keeps them as sent.
    const query = "How tall is the Eiffel Tower? 🗼";
    const started = await post("/v1/runs", { query, durable: false });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const status = (await (await SELF.fetch(`${origin}/v1/runs/${id}`)).json()) as { run: { query: string } };
    expect(status.run.query).toBe(query);
    await SELF.fetch(`${origin}/v1/runs/${id}/cancel`, { method: "POST" });
  });

  it("an approval names the step id it could not read", async () => {
    const response = await post("/v1/runs/run-0123456789abcdef0123456789abcdef/approvals", {
      decisions: [{ stepId: "s 1", approved: true }],
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors[0]).toEqual({
      pointer: "#/decisions/0/stepId",
      detail: 'stepId must be 1 to 64 letters, digits, _ or - (got "s 1")',
    });
  });
});
