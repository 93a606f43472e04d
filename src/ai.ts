/**
 * plankit/ai — adapters between the AI SDK (`ai`) and plankit: AI SDK
 * language models as plankit's model interface, and runs as the UI message
 * streams of AI SDK UI clients (`useChat`).
 *
 * @module
 */
export { createChatTransport, type ChatRun, type ChatRuntime, type ChatTransportOptions } from "./ai/create-chat-transport.ts";
export { EagerAgent, type EagerAgentCall, type EagerAgentResult, type EagerAgentSettings, type EagerAgentStream } from "./ai/eager-agent.ts";
export { fromLanguageModel, type FromLanguageModelOptions } from "./ai/from-language-model.ts";
export { fromUIApprovalResponses } from "./ai/from-ui-approval-responses.ts";
export { fromUIMessages } from "./ai/from-ui-messages.ts";
export { approvalIdOf, toApprovalChunks } from "./ai/to-approval-chunks.ts";
export { toUIMessageStream, type ToUIMessageStreamOptions } from "./ai/to-ui-message-stream.ts";
export { toUIMessageStreamResponse, type ToUIMessageStreamResponseOptions } from "./ai/to-ui-message-stream-response.ts";
