/**
 * plankit/ai — adapters between the AI SDK (`ai`) and plankit: AI SDK
 * language models as plankit's model interface, and runs as the UI message
 * streams of AI SDK UI clients (`useChat`).
 *
 * @module
 */
export { createChatTransport, type ChatRun, type ChatRuntime } from "./create-chat-transport.ts";
export { EagerAgent, type EagerAgentCall, type EagerAgentResult, type EagerAgentSettings, type EagerAgentStream } from "./eager-agent.ts";
export { fromLanguageModel, type FromLanguageModelOptions } from "./from-language-model.ts";
export { fromUIApprovalResponses } from "./from-ui-approval-responses.ts";
export { fromUIMessages } from "./from-ui-messages.ts";
export { approvalIdOf, toApprovalChunks } from "./to-approval-chunks.ts";
export { toUIMessageStream, type ToUIMessageStreamOptions } from "./to-ui-message-stream.ts";
export { toUIMessageStreamResponse, type ToUIMessageStreamResponseOptions } from "./to-ui-message-stream-response.ts";
