/**
 * plankit/openai — runs as OpenAI Chat Completions: chunks for a streamed
 * response, and a conversation read from Chat Completions messages.
 *
 * @module
 */
export { toChatCompletionChunks, type ChatCompletionChunk, type ChatCompletionChunkOptions } from "./openai/to-chat-completion-chunks.ts";
export { fromChatMessages } from "./openai/from-chat-messages.ts";
export { toChatCompletionStream } from "./openai/to-chat-completion-stream.ts";
export { collectChatCompletion, type ChatCompletion } from "./openai/collect-chat-completion.ts";
