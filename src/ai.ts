/**
 * plankit/ai — adapters between the AI SDK (`ai`) and plankit: AI SDK
 * language models as plankit's model interface, and runs as the UI message
 * streams of AI SDK UI clients (`useChat`).
 *
 * @module
 */
export {
  type ChatRun,
  type ChatRuntime,
  type ChatTransportOptions,
  createChatTransport,
} from "./ai/create-chat-transport.ts";
export {
  EagerAgent,
  type EagerAgentCall,
  type EagerAgentResult,
  type EagerAgentSettings,
  type EagerAgentStream,
} from "./ai/eager-agent.ts";
export { type FromLanguageModelOptions, fromLanguageModel } from "./ai/from-language-model.ts";
export { fromUIApprovalResponses } from "./ai/from-ui-approval-responses.ts";
export { fromUIMessages } from "./ai/from-ui-messages.ts";
export { approvalIdOf, toApprovalChunks } from "./ai/to-approval-chunks.ts";
export { type ToUIMessageStreamOptions, toUIMessageStream } from "./ai/to-ui-message-stream.ts";
export {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from "./ai/to-ui-message-stream-response.ts";
