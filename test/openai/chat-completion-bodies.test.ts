import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { type ChatCompletionChunk, collectChatCompletion, toChatCompletionStream } from "../../src/openai.ts";

const chunk = (
  delta: ChatCompletionChunk["choices"][number]["delta"],
  finish: "stop" | "length" | null = null,
): ChatCompletionChunk => ({
  id: "chatcmpl-r1",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "plankit",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const chunks: ChatCompletionChunk[] = [
  chunk({ role: "assistant", reasoning_content: "s1 started\n" }),
  chunk({ content: "Tokyo is " }),
  chunk({ content: "larger." }, "stop"),
  { ...chunk({}), choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } },
];

async function* from<T>(items: readonly T[], log: string[] = []): AsyncGenerator<T> {
  try {
    for (const item of items) yield item;
  } finally {
    log.push("closed");
  }
}

describe("toChatCompletionStream", () => {
  it("writes one data message per chunk, then [DONE], as an SSE parser reads it", async () => {
    const text = await new Response(toChatCompletionStream(from(chunks))).text();
    const data: string[] = [];
    const parser = createParser({ onEvent: (message) => data.push(message.data) });
    parser.feed(text);
    expect(data.at(-1)).toBe("[DONE]");
    expect(data.slice(0, -1).map((item) => JSON.parse(item) as unknown)).toEqual(chunks);
  });

  it("calls onCancel once and closes the chunks when the client goes away", async () => {
    const log: string[] = [];
    let cancels = 0;
    const reader = toChatCompletionStream(from(chunks, log), () => cancels++).getReader();
    await reader.read();
    await reader.cancel();
    expect(cancels).toBe(1);
    expect(log).toEqual(["closed"]);
  });
});

describe("collectChatCompletion", () => {
  it("joins content and reasoning, keeps the last finish reason and the usage", async () => {
    expect(await collectChatCompletion(from(chunks))).toEqual({
      id: "chatcmpl-r1",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "plankit",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Tokyo is larger.", reasoning_content: "s1 started\n" },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    });
  });
});
