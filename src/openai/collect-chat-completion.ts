/**
 * Chat Completions chunks as one whole completion.
 *
 * @module
 */
import type { ChatCompletionChunk } from "./to-chat-completion-chunks.ts";

/** A whole `chat.completion`, as a request without `stream` gets it. */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  /** Unix seconds. */
  created: number;
  model: string;
  choices: {
    index: 0;
    message: { role: "assistant"; content: string; reasoning_content?: string };
    finish_reason: "stop" | "length";
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * Collects chunks into one `chat.completion` object: the content and the
 * reasoning joined, the last finish reason, and the usage (from the chunk
 * that carries it).
 *
 * @param chunks - the chunks (see `toChatCompletionChunks`).
 * @returns the completion.
 *
 * @example
 * ```ts
 * const completion = await collectChatCompletion(toChatCompletionChunks(run, { model: "plankit", includeUsage: true }));
 * console.log(completion.choices[0].message.content);
 * ```
 */
export async function collectChatCompletion(chunks: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletion> {
  let first: ChatCompletionChunk | undefined;
  let content = "";
  let reasoning = "";
  let finish: "stop" | "length" | null = null;
  let usage: ChatCompletionChunk["usage"];
  for await (const chunk of chunks) {
    first ??= chunk;
    const choice = chunk.choices[0];
    content += choice?.delta.content ?? "";
    reasoning += choice?.delta.reasoning_content ?? "";
    finish = choice?.finish_reason ?? finish;
    usage = chunk.usage ?? usage;
  }
  const message: ChatCompletion["choices"][number]["message"] = { role: "assistant", content };
  if (reasoning !== "") message.reasoning_content = reasoning;
  const completion: ChatCompletion = {
    id: first?.id ?? "chatcmpl",
    object: "chat.completion",
    created: first?.created ?? Math.floor(Date.now() / 1000),
    model: first?.model ?? "plankit",
    choices: [{ index: 0, message, finish_reason: finish ?? "stop" }],
  };
  if (usage !== undefined) completion.usage = usage;
  return completion;
}
