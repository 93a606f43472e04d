/**
 * plankit/openai — runs as OpenAI Chat Completions: chunks for a streamed
 * response, and a conversation read from Chat Completions messages.
 *
 * @module
 */

export { type ChatCompletion, collectChatCompletion } from "./openai/collect-chat-completion.ts";
export { fromChatMessages } from "./openai/from-chat-messages.ts";
export {
  type ChatCompletionChunk,
  type ChatCompletionChunkOptions,
  toChatCompletionChunks,
} from "./openai/to-chat-completion-chunks.ts";
export { toChatCompletionStream } from "./openai/to-chat-completion-stream.ts";
