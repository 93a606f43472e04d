/**
 * A chat transport that runs plans where the chat is, with no server.
 *
 * @module
 */
import type { ChatTransport, UIMessage } from "ai";
import type { Dialog } from "../runtime/dialog.ts";
import type { RuntimeEvent } from "../runtime/runtime-event.ts";
import { fromUIMessages } from "./from-ui-messages.ts";
import { toUIMessageStream, type ToUIMessageStreamOptions } from "./to-ui-message-stream.ts";

/** What the transport needs of a runtime: `AgentRuntime.run`. */
export interface ChatRuntime {
  run(dialog: Dialog, options?: { signal?: AbortSignal }): AsyncIterable<RuntimeEvent>;
}

/**
 * Makes an AI SDK `ChatTransport` that answers each message by running a
 * plan with the given runtime, in the same process — `useChat` (or any
 * AI SDK chat) in the browser, with no API route: `sendMessages` reads the
 * conversation with {@link fromUIMessages}, starts `runtime.run` with the
 * chat's abort signal (so `stop()` aborts the run) and returns the run as
 * a UI message stream ({@link toUIMessageStream}); a regenerated message
 * keeps its id. There is nothing to reconnect to, so
 * `reconnectToStream` answers `null`.
 *
 * @param runtime - the runtime (an `AgentRuntime`).
 * @param options - `sendEvents`, and a fixed `messageId` if wanted.
 * @returns the transport.
 *
 * @example
 * ```ts
 * const { messages, sendMessage } = useChat({ transport: createChatTransport(new AgentRuntime({ planner, registry })) });
 * ```
 */
export function createChatTransport<UI_MESSAGE extends UIMessage = UIMessage>(runtime: ChatRuntime, options: ToUIMessageStreamOptions = {}): ChatTransport<UI_MESSAGE> {
  return {
    async sendMessages({ messages, abortSignal, messageId }) {
      const run = runtime.run(fromUIMessages(messages), abortSignal === undefined ? {} : { signal: abortSignal });
      const messageOptions: ToUIMessageStreamOptions = { ...options };
      if (messageOptions.messageId === undefined && messageId !== undefined) messageOptions.messageId = messageId;
      return toUIMessageStream(run, messageOptions);
    },
    async reconnectToStream() {
      return null;
    },
  };
}
