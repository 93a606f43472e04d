/**
 * An OpenAI-compatible chat-completions stub for tests: it streams an answer
 * as chat-completion SSE chunks, the way OpenAI-compatible servers do.
 * Portable: it builds web-standard `Response`s; the Node suite serves the
 * same events over `node:http`.
 *
 * @module
 */

/** How the stub answers one request. */
export interface StubAnswer {
  /** The assistant text. */
  text: string;
  /** Characters per content chunk. @defaultValue 8 */
  chunkSize?: number;
  /** Tool calls streamed after the text, their arguments in pieces of `chunkSize` characters. */
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** The finish reason of the last chunk; `null` sends none. @defaultValue "tool_calls" with tool calls, else "stop" */
  finishReason?: "stop" | "length" | "content_filter" | "tool_calls" | null;
  /** Token usage, sent in a final chunk. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer with this HTTP status and an error body instead of streaming. */
  status?: number;
}

/** A request the stub received. */
export interface StubRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: Record<string, unknown>;
}

/**
 * The SSE events (each `data: …\n\n`) that stream `answer` as chat-completion chunks.
 *
 * @param answer - the answer.
 * @returns the events, ending with `data: [DONE]`.
 */
export function chatCompletionEvents(answer: StubAnswer): string[] {
  const size = answer.chunkSize ?? 8;
  const base = { id: "chatcmpl-stub", object: "chat.completion.chunk", created: 1_700_000_000, model: "stub-model" };
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
  const events = [chunk({ delta: { role: "assistant", content: "" }, finish_reason: null })];
  for (let offset = 0; offset < answer.text.length; offset += size) {
    events.push(chunk({ delta: { content: answer.text.slice(offset, offset + size) }, finish_reason: null }));
  }
  for (const [index, call] of (answer.toolCalls ?? []).entries()) {
    events.push(
      chunk({
        delta: { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] },
        finish_reason: null,
      }),
    );
    for (let offset = 0; offset < call.arguments.length; offset += size) {
      events.push(
        chunk({
          delta: { tool_calls: [{ index, function: { arguments: call.arguments.slice(offset, offset + size) } }] },
          finish_reason: null,
        }),
      );
    }
  }
  const finishReason =
    answer.finishReason === undefined
      ? (answer.toolCalls ?? []).length > 0
        ? "tool_calls"
        : "stop"
      : answer.finishReason;
  if (finishReason !== null) events.push(chunk({ delta: {}, finish_reason: finishReason }));
  if (answer.usage !== undefined) {
    const usage = { ...answer.usage, total_tokens: answer.usage.prompt_tokens + answer.usage.completion_tokens };
    events.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
  }
  events.push("data: [DONE]\n\n");
  return events;
}

/** The JSON error body OpenAI-compatible servers send. */
export function errorBody(status: number): string {
  return JSON.stringify({ error: { message: `stub failure ${status}`, type: "server_error", code: null } });
}

/**
 * A `fetch` that serves the stub: `POST …/chat/completions` streams the
 * answer chosen by `respond`; any other request is a 404. Each chunk is a
 * separate read of the body stream, and `gate` (when given) is awaited
 * before the chunk at `gateAt`, so a test can hold the rest of the answer
 * back.
 *
 * @param respond - picks the answer for a request.
 * @param requests - receives each request.
 * @returns the fetch function.
 */
export function createStubFetch(
  respond: (request: StubRequest) => StubAnswer,
  requests: StubRequest[] = [],
  gate?: { at: number; wait: () => Promise<void> },
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const text = await request.text();
    const received: StubRequest = {
      method: request.method,
      path,
      authorization: request.headers.get("authorization"),
      body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
    requests.push(received);
    if (request.method !== "POST" || !path.endsWith("/chat/completions"))
      return new Response("not found", { status: 404 });
    const answer = respond(received);
    if (answer.status !== undefined)
      return new Response(errorBody(answer.status), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    const events = chatCompletionEvents(answer);
    const encoder = new TextEncoder();
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (index >= events.length) {
          controller.close();
          return;
        }
        if (gate !== undefined && index === gate.at) await gate.wait();
        controller.enqueue(encoder.encode(events[index++]));
      },
    });
    return new Response(body, {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  };
}
