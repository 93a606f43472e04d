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
      fc.asyncProperty(
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        text,
        fc.array(fc.nat(), { maxLength: 6 }),
        async (secrets, input, cuts) => {
          const redact = createRedactor(secrets);
          const whole = redact(input);
          for (const part of whole.split("[redacted]")) {
            for (const value of secrets) {
              expect(part.includes(value)).toBe(false);
              expect(part.includes(JSON.stringify(value).slice(1, -1))).toBe(false);
            }
          }
          expect(await throughStream(input, cuts, secrets)).toBe(whole);
        },
      ),
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

/** A source the test writes into: `send` enqueues text, `cancelled` holds the reason of a cancel. */
function createManualSource(): {
  stream: ReadableStream<Uint8Array>;
  send: (text: string) => void;
  end: () => void;
  cancelled: { reason?: unknown; called: boolean };
} {
  const encoder = new TextEncoder();
  let control: ReadableStreamDefaultController<Uint8Array> | undefined;
  const cancelled: { reason?: unknown; called: boolean } = { called: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      control = controller;
    },
    cancel(reason) {
      cancelled.called = true;
      cancelled.reason = reason;
    },
  });
  return { stream, send: (text) => control?.enqueue(encoder.encode(text)), end: () => control?.close(), cancelled };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("redactBody's heartbeat", () => {
  const decoder = new TextDecoder();
  const readText = async (reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string | undefined> => {
    const next = await reader.read();
    return next.done ? undefined : decoder.decode(next.value);
  };

  it("writes an SSE comment while a stream is quiet at a message boundary, and loses no event of the source", async () => {
    const source = createManualSource();
    const reader = redactBody(source.stream, createRedactor([]), {
      prefix: "retry: 3000\n\n",
      heartbeatMs: 1,
    }).getReader();
    expect(await readText(reader)).toBe("retry: 3000\n\n");
    source.send("data: 1\n\n");
    expect(await readText(reader)).toBe("data: 1\n\n");
    // Nothing comes: the body writes comments, as many as the client reads.
    expect(await readText(reader)).toBe(":\n\n");
    expect(await readText(reader)).toBe(":\n\n");
    source.send("data: 2\n\n");
    for (let next = await readText(reader); next !== "data: 2\n\n"; next = await readText(reader))
      expect(next).toBe(":\n\n");
    source.end();
    expect(await readText(reader)).toBeUndefined();
  });

  it("never writes a comment inside a message (the source stopped mid-line)", async () => {
    const source = createManualSource();
    const reader = redactBody(source.stream, createRedactor([]), { heartbeatMs: 1 }).getReader();
    source.send('data: {"half":');
    expect(await readText(reader)).toBe('data: {"half":');
    const next = reader.read();
    // Many heartbeats' worth of quiet: still nothing may be written until the message ends.
    await sleep(50);
    source.send(" 1}\n\n");
    const value = await next;
    expect(value.done ? undefined : decoder.decode(value.value)).toBe(" 1}\n\n");
    expect(await readText(reader)).toBe(":\n\n");
    await reader.cancel("done");
  });

  it("writes none without heartbeatMs, and passes a cancel during a quiet spell to the source", async () => {
    const quiet = createManualSource();
    const quietReader = redactBody(quiet.stream, createRedactor([])).getReader();
    const pending = quietReader.read();
    await sleep(30);
    quiet.send("data: x\n\n");
    const first = await pending;
    expect(first.done ? undefined : decoder.decode(first.value)).toBe("data: x\n\n");

    const source = createManualSource();
    const reader = redactBody(source.stream, createRedactor([]), { heartbeatMs: 1 }).getReader();
    expect(await readText(reader)).toBe(":\n\n");
    await reader.cancel("client went away");
    expect(source.cancelled).toEqual({ called: true, reason: "client went away" });
  });
});

describe("openAIErrorResponse", () => {
  it("names the field at fault as OpenAI does, the code in snake_case, the type by status", async () => {
    const body = async (problem: HttpProblem) =>
      ((await openAIErrorResponse(problem).json()) as { error: Record<string, unknown> }).error;
    expect(
      await body(
        new HttpProblem(400, "bad", {
          code: "invalid-body",
          errors: [{ pointer: "#/messages/0/content", detail: "x" }],
        }),
      ),
    ).toEqual({
      message: "bad",
      type: "invalid_request_error",
      param: "messages[0].content",
      code: "invalid_body",
    });
    expect(
      (
        await body(
          new HttpProblem(400, "bad", { code: "invalid-body", errors: [{ pointer: "#/a~1b/c~0d", detail: "x" }] }),
        )
      )["param"],
    ).toBe("a/b.c~d");
    expect(
      (await body(new HttpProblem(400, "bad", { code: "invalid-body", errors: [{ pointer: "#", detail: "x" }] })))[
        "param"
      ],
    ).toBeNull();
    expect(await body(new HttpProblem(500, "oops", { code: "internal-error" }))).toMatchObject({
      type: "server_error",
      param: null,
      code: "internal_error",
    });
    const response = openAIErrorResponse(
      new HttpProblem(401, "no", { code: "missing-token", headers: { "www-authenticate": "Bearer" } }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/u);
  });
});
