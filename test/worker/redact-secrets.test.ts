import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpProblem } from "../../worker/http/http-problem.ts";
import { openAIErrorResponse } from "../../worker/http/openai-error-response.ts";
import { redactBody } from "../../worker/http/redact-body.ts";
import { createRedactor } from "../../worker/http/redact-secrets.ts";

/** Streams `text` cut at `cuts` through `redactBody`, and reads it back. */
async function throughStream(text: string, cuts: number[], secrets: string[]): Promise<string> {
  const encoder = new TextEncoder();
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    parts.push(text.slice(from, point));
    from = point;
  }
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
  return new Response(redactBody(source, createRedactor(secrets))).text();
}

describe("createRedactor and redactBody", () => {
  const secret = fc.string({ unit: fc.constantFrom("a", "b", "c", '"'), minLength: 1, maxLength: 5 });
  const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "x", '"', "\\"), maxLength: 60 });

  it("leave no secret whole between the markers, and give the same text however a stream is cut", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(secret, { minLength: 1, maxLength: 3 }), text, fc.array(fc.nat(), { maxLength: 6 }), async (secrets, input, cuts) => {
        const redact = createRedactor(secrets);
        const whole = redact(input);
        for (const part of whole.split("[redacted]")) {
          for (const value of secrets) {
            expect(part.includes(value)).toBe(false);
            expect(part.includes(JSON.stringify(value).slice(1, -1))).toBe(false);
          }
        }
        expect(await throughStream(input, cuts, secrets)).toBe(whole);
      }),
      { numRuns: 500 },
    );
  });

  it("wait for the rest of a stream where a longer secret may begin, even when a shorter one matches", async () => {
    expect(await throughStream('"b', [1], ['"b', '"'])).toBe("[redacted]");
    expect(await throughStream("ab", [1], ["a", "ab"])).toBe("[redacted]");
    expect(await throughStream("ax", [1], ["a", "ab"])).toBe("[redacted]x");
  });

  it("redact secrets of any length, and nothing without secrets", () => {
    expect(createRedactor(["k"])("kayak")).toBe("[redacted]aya[redacted]");
    expect(createRedactor(["abc", "abcdef"])("xabcdefy abcz")).toBe("x[redacted]y [redacted]z");
    expect(createRedactor([undefined, ""])("text")).toBe("text");
    expect(createRedactor([undefined]).active).toBe(false);
  });
});

describe("openAIErrorResponse", () => {
  it("names the field at fault as OpenAI does, the code in snake_case, the type by status", async () => {
    const body = async (problem: HttpProblem) => ((await openAIErrorResponse(problem).json()) as { error: Record<string, unknown> }).error;
    expect(await body(new HttpProblem(400, "bad", { code: "invalid-body", errors: [{ pointer: "#/messages/0/content", detail: "x" }] }))).toEqual({
      message: "bad",
      type: "invalid_request_error",
      param: "messages[0].content",
      code: "invalid_body",
    });
    expect((await body(new HttpProblem(400, "bad", { code: "invalid-body", errors: [{ pointer: "#/a~1b/c~0d", detail: "x" }] })))["param"]).toBe("a/b.c~d");
    expect((await body(new HttpProblem(400, "bad", { code: "invalid-body", errors: [{ pointer: "#", detail: "x" }] })))["param"]).toBeNull();
    expect(await body(new HttpProblem(500, "oops", { code: "internal-error" }))).toMatchObject({ type: "server_error", param: null, code: "internal_error" });
    const response = openAIErrorResponse(new HttpProblem(401, "no", { code: "missing-token", headers: { "www-authenticate": "Bearer" } }));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/u);
  });
});
