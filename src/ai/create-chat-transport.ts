/**
 * A chat transport that runs plans where the chat is, with no server.
 *
 * @module
 */
import type { ChatTransport, UIMessage, UIMessageChunk } from "ai";
import { PlankitError } from "../errors/plankit-error.ts";
import type { ApprovalDecision } from "../events/approval-decision.ts";
import type { Dialog } from "../events/dialog.ts";
import type { RunState } from "../events/run-state.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { clampTimerMs } from "../shared/clamp-timer-ms.ts";
import { describeValue } from "../shared/describe-value.ts";
import { type RuntimeClock, systemClock } from "../shared/runtime-clock.ts";
import { chatRunsOf, type HeldChatRun } from "./chat-runs-of.ts";
import { fromUIApprovalResponses } from "./from-ui-approval-responses.ts";
import { fromUIMessages } from "./from-ui-messages.ts";
import { type ToUIMessageStreamOptions, toUIMessageStream } from "./to-ui-message-stream.ts";

/**
 * A run as the transport uses it: its events, and for approvals (an
 * `AgentRuntime` run handle has them) its state, events so far, whether it
 * waits for decisions, how to pass them, and when it ends.
 */
export interface ChatRun extends AsyncIterable<RuntimeEvent> {
  readonly state?: RunState;
  readonly done?: Promise<unknown>;
  readonly events?: readonly RuntimeEvent[];
  readonly waitingForApproval?: boolean;
  approve?(decisions: readonly ApprovalDecision[]): void;
  abort?(reason?: string): void;
}

/** What the transport needs of a runtime: `AgentRuntime.run`. */
export interface ChatRuntime {
  run(dialog: Dialog, options?: { signal?: AbortSignal }): ChatRun;
}

/**
 * The run's events for one stream of its message: from the start (the
 * stream skips those already sent), ending — without stopping the run —
 * once the run waits only for approval decisions and every event was read.
 *
 * @param run - the run.
 * @param sent - receives the count of events read, for the next stream.
 * @returns the events.
 */
function untilApprovalWait(run: ChatRun, sent: (count: number) => void): AsyncIterable<RuntimeEvent> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = run[Symbol.asyncIterator]();
      let read = 0;
      return {
        async next(): Promise<IteratorResult<RuntimeEvent>> {
          // Leaving here does not call the run's `return`, which would abort it.
          if (run.waitingForApproval === true && read === run.events?.length) return { done: true, value: undefined };
          const next = await iterator.next();
          if (next.done !== true) sent(++read);
          return next;
        },
        async return(): Promise<IteratorResult<RuntimeEvent>> {
          return (await iterator.return?.()) ?? { done: true, value: undefined };
        },
      };
    },
  };
}

/** Options of {@link createChatTransport}. */
export interface ChatTransportOptions extends Omit<ToUIMessageStreamOptions, "skipEvents"> {
  /**
   * How long a run that waits for approval answers is kept for the chat's
   * next request, in milliseconds from the end of the stream that showed
   * the request; then the run is aborted. Without this option a run whose
   * runtime sets `approvalTimeoutMs` waits as long as that lets it (the
   * runtime denies the steps, the run ends, and the transport lets it go).
   *
   * At least 1; longer than a timer can wait (about 24.8 days), it is
   * that long.
   *
   * @defaultValue the runtime's `approvalTimeoutMs` when it has one, else 30 minutes
   */
  maxApprovalWaitMs?: number;
  /**
   * The clock the wait limit is timed on.
   *
   * @defaultValue `systemClock`
   */
  clock?: RuntimeClock;
}

/** How long a run waits for answers when neither the transport nor the runtime says: 30 minutes. */
const defaultApprovalWaitMs = 1_800_000;

/**
 * The assistant message a request continues: the one the chat answered
 * approvals of (`messageId` of a `submit-message`), else the last message.
 *
 * @param messages - the chat's messages.
 * @param messageId - the request's message id.
 * @returns the message, when it is an assistant's.
 */
function continuedMessage(messages: readonly UIMessage[], messageId: string | undefined): UIMessage | undefined {
  const message =
    messageId === undefined ? messages[messages.length - 1] : messages.find((candidate) => candidate.id === messageId);
  return message?.role === "assistant" ? message : undefined;
}

/**
 * Whether a message carries approval answers not sent yet (tool parts in
 * state `approval-responded`).
 *
 * @param message - the message.
 * @returns `true` when it does.
 */
function hasApprovalAnswers(message: UIMessage): boolean {
  return message.parts.some((part) => (part as { state?: unknown }).state === "approval-responded");
}

/**
 * How long the transport keeps a waiting run: the option, else nothing
 * when the run's last approval request times out by itself, else the default.
 *
 * @param run - the run.
 * @param option - `maxApprovalWaitMs`.
 * @returns the limit, or `undefined` for none.
 */
function approvalWaitOf(run: ChatRun, option: number | undefined): number | undefined {
  if (option !== undefined) return clampTimerMs(option, defaultApprovalWaitMs);
  const events = run.events ?? [];
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === "approval-request")
      return event.timeoutMs !== undefined && run.done !== undefined ? undefined : defaultApprovalWaitMs;
  }
  return defaultApprovalWaitMs;
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
 * Approvals: when the run waits only for approval decisions, the stream
 * ends with the steps' parts in state `approval-requested`, and the run
 * waits. Once the app answered them with `addToolApprovalResponse` (and
 * `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`,
 * or a `sendMessage()`), the next request carries the answers: the
 * transport passes them to `run.approve` and continues the same assistant
 * message where it stopped.
 *
 * The waiting runs are kept by runtime object, chat id and message id, not
 * in the transport: every transport made with the same runtime finds them,
 * so `useChat({ transport: createChatTransport(runtime) })` may make a new
 * transport on each render. A run is let go when it is continued, when it
 * ends (the runtime's `approvalTimeoutMs`, an abort), when a request of the
 * chat no longer has its message (`regenerate`, a history cut: it is
 * aborted), or when `maxApprovalWaitMs` passes (it is aborted). While a
 * run waits no request is open, so `stop()` has nothing to abort.
 * Answers for a message whose
 * run is no longer kept are refused — the request fails with
 * `invalid-approval` — rather than starting a new run that would repeat
 * the plan's tools.
 *
 * @param runtime - the runtime (an `AgentRuntime`); make it once, outside the component, since the waiting runs are kept by it.
 * @param options - `sendEvents`, a fixed `messageId` if wanted, `maxApprovalWaitMs` and its `clock`.
 * @returns the transport.
 * @throws PlankitError `invalid-options` for a `maxApprovalWaitMs` that is not a number of at least 1; from `sendMessages`, `invalid-approval` when the chat sends answers for a run no longer kept and `invalid-input` for messages it cannot read.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry, policy: { send_mail: { approval: "plan" } } });
 * function Chat() {
 *   const { messages, sendMessage, addToolApprovalResponse } = useChat({
 *     transport: createChatTransport(runtime),
 *     sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
 *   });
 *   // …
 * }
 * ```
 */
export function createChatTransport<UI_MESSAGE extends UIMessage = UIMessage>(
  runtime: ChatRuntime,
  options: ChatTransportOptions = {},
): ChatTransport<UI_MESSAGE> {
  checkOptionKeys(options, ["maxApprovalWaitMs", "clock", "messageId", "sendEvents"], "createChatTransport");
  const { maxApprovalWaitMs, clock = systemClock, ...streamOptions } = options;
  if (
    maxApprovalWaitMs !== undefined &&
    (typeof maxApprovalWaitMs !== "number" || Number.isNaN(maxApprovalWaitMs) || maxApprovalWaitMs < 1)
  ) {
    throw new PlankitError(
      "invalid-options",
      `Option maxApprovalWaitMs must be a number of at least 1, got ${typeof maxApprovalWaitMs === "number" ? String(maxApprovalWaitMs) : describeValue(maxApprovalWaitMs)}`,
    );
  }
  const runs = chatRunsOf<ChatRun>(runtime);
  /** Keeps a run that waits for answers for the chat's next request about the message. */
  const keep = (chatId: string, messageId: string, held: HeldChatRun<ChatRun>): void => {
    if (held.run.waitingForApproval !== true || held.run.state?.status === "ended") return;
    const ms = approvalWaitOf(held.run, maxApprovalWaitMs);
    runs.hold(chatId, messageId, held, { ms, clock }, `No approval answer came within ${ms} ms`);
  };
  const stream = (
    run: ChatRun,
    chatId: string,
    messageId: string,
    skipEvents: number,
  ): ReadableStream<UIMessageChunk> => {
    let sent = skipEvents;
    const events = run.waitingForApproval === undefined ? run : untilApprovalWait(run, (count) => (sent = count));
    const chunks = toUIMessageStream(events, { ...streamOptions, messageId, skipEvents });
    // Once this stream is read to its end, a run that still waits is kept for the answers.
    return chunks.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        flush() {
          keep(chatId, messageId, { run, sent });
        },
      }),
    );
  };
  const resume = (
    held: HeldChatRun<ChatRun>,
    chatId: string,
    message: UIMessage,
    abortSignal: AbortSignal | undefined,
  ): ReadableStream<UIMessageChunk> => {
    const { run } = held;
    const decisions = run.state === undefined ? [] : fromUIApprovalResponses(message, run.state);
    try {
      if (decisions.length > 0) run.approve?.(decisions);
    } catch (error) {
      // A refused batch changes nothing: the run keeps waiting for answers it can take.
      keep(chatId, message.id, held);
      throw error;
    }
    abortSignal?.addEventListener("abort", () => run.abort?.("The chat stopped the run"), { once: true });
    return stream(run, chatId, message.id, held.sent);
  };
  return {
    async sendMessages({ chatId, messages, abortSignal, messageId, trigger }) {
      const continued = trigger === "submit-message" ? continuedMessage(messages, messageId) : undefined;
      if (continued !== undefined) {
        const held = runs.take(chatId, continued.id);
        if (held !== undefined) return resume(held, chatId, continued, abortSignal);
        if (hasApprovalAnswers(continued)) {
          throw new PlankitError(
            "invalid-approval",
            `Chat "${chatId}" answered approval requests of message "${continued.id}", but no run waits for them any more (it ended, was stopped, or waited too long); send the request again`,
          );
        }
      }
      const dialog = fromUIMessages(messages);
      // A run kept for a message the chat no longer has (regenerated, cut from its history) is aborted.
      runs.dropAllBut(
        chatId,
        new Set(messages.map((message) => message.id)),
        "The chat no longer has the run's message",
      );
      const id = options.messageId ?? messageId;
      const run = runtime.run(dialog, abortSignal === undefined ? {} : { signal: abortSignal });
      const streamId = id ?? run.state?.runId ?? (run as { runId?: string }).runId;
      if (streamId === undefined) return toUIMessageStream(run, streamOptions);
      return stream(run, chatId, streamId, 0);
    },
    async reconnectToStream() {
      return null;
    },
  };
}
