/**
 * A model that streams scripted answers at a realistic pace: for tests,
 * benchmarks and offline demos.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { abortError } from "../shared/abort-error.ts";
import type { FinishReason, PlanModel, PlanModelPart, PlanModelPurpose, PlanModelRequest } from "./plan-model.ts";

const scriptedStream = "The scripted model stream";

/** A native tool call of a scripted answer. */
export interface ScriptedToolCall {
  /** The tool's name, as offered in the request's `tools`. */
  name: string;
  /** The arguments: a value, sent as its JSON, or the JSON text itself. */
  input: unknown;
  /** The call's id. @defaultValue `call1`, `call2`, … counted over the model's calls */
  id?: string;
}

/**
 * One scripted answer: its text, and optionally native tool calls and how it ends.
 *
 * - `toolCalls`: streamed after the text as a provider streams them
 *   (`tool-input-start`, the arguments' JSON in chunks at the model's pace,
 *   `tool-input-end`, then `tool-call`), for `ToolCallPlanner`.
 * - `finishReason`: the reason of the final `finish` part (`"tool-calls"`
 *   when there are calls, else the model's); `null` ends the stream without
 *   one (an unclean finish).
 * - `error`: thrown after the text has streamed, instead of finishing.
 */
export interface ScriptedAnswer {
  /** @defaultValue `""` */
  text?: string;
  toolCalls?: readonly ScriptedToolCall[];
  finishReason?: FinishReason | null;
  error?: unknown;
}

/** A scripted answer: plain text (finishing with the model's `finishReason`) or a {@link ScriptedAnswer}. */
export type ScriptedResponse = string | ScriptedAnswer;

/**
 * Picks the answer to a request: `call` counts from 1.
 *
 * @param request - the request as the model received it.
 * @param call - the 1-based number of this call.
 * @returns the answer.
 */
export type ScriptedResponder = (
  request: PlanModelRequest,
  call: number,
) => ScriptedResponse | PromiseLike<ScriptedResponse>;

/**
 * Answers by the request's `purpose`: each key holds the answers for calls
 * with that purpose (in order, counted per purpose) or a function of the
 * request; `other` answers calls without a purpose or without a key of
 * their own.
 */
export type ScriptedResponsesByPurpose = Partial<
  Record<PlanModelPurpose | "other", readonly ScriptedResponse[] | ScriptedResponder>
>;

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /**
   * The answers: one per call in order, a function of the request, or
   * answers by purpose ({@link ScriptedResponsesByPurpose}).
   */
  responses: readonly ScriptedResponse[] | ScriptedResponder | ScriptedResponsesByPurpose;
  /**
   * Characters per token: the text streams in chunks of this many characters.
   *
   * @defaultValue `4`
   */
  charsPerToken?: number;
  /**
   * Streaming rate. `undefined` or `Infinity` streams without any delay.
   *
   * @defaultValue `Infinity`
   */
  tokensPerSecond?: number;
  /**
   * Delay before the first token, in milliseconds (time to first token).
   *
   * @defaultValue `0`
   */
  firstTokenMs?: number;
  /**
   * How plain-text answers end; `null` ends them without a `finish` part.
   *
   * @defaultValue `"stop"`
   */
  finishReason?: FinishReason | null;
  /**
   * Waits `ms` milliseconds, rejecting when `signal` fires. Inject one in tests
   * to control time; the default uses `setTimeout`. With an injected `sleep`
   * the model assumes each call waited exactly `ms`.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The model returned by {@link createScriptedModel}. */
export interface ScriptedModel extends PlanModel {
  /** Number of `stream()` calls so far. */
  readonly calls: number;
  /** Every request received, in order. */
  readonly requests: readonly PlanModelRequest[];
}

/** The keys of {@link ScriptedResponsesByPurpose}. */
const purposeKeys = new Set<string>([
  "plan",
  "repair",
  "replan",
  "reason",
  "understand",
  "reflect",
  "integrate",
  "llm-step",
  "decide",
  "guided-reply",
  "other",
]);

/**
 * Waits with `setTimeout`, rejecting as soon as the signal fires.
 *
 * @param ms - milliseconds.
 * @param signal - cancels the wait.
 * @returns a promise that resolves after `ms`.
 */
function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal, scriptedStream));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      if (signal !== undefined) reject(abortError(signal, scriptedStream));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The current time in milliseconds, as precise as the runtime allows.
 *
 * @returns a monotonic-ish timestamp.
 */
function clock(): number {
  return typeof performance === "undefined" ? Date.now() : performance.now();
}

/**
 * Checks the options of {@link createScriptedModel}.
 *
 * @param responses - the answers.
 * @param charsPerToken - characters per token.
 * @param tokensPerSecond - the streaming rate.
 * @param firstTokenMs - the delay before the first token.
 * @throws PlankitError `invalid-options` naming the option and the value.
 */
function checkScriptedOptions(
  responses: unknown,
  charsPerToken: number,
  tokensPerSecond: number,
  firstTokenMs: number,
): void {
  if (
    !Array.isArray(responses) &&
    typeof responses !== "function" &&
    (typeof responses !== "object" || responses === null)
  ) {
    throw new PlankitError(
      "invalid-options",
      `Option responses must be an array of answers, a function of the request or answers by purpose, got ${responses === null ? "null" : typeof responses}`,
    );
  }
  if (!Array.isArray(responses) && typeof responses === "object" && responses !== null) {
    for (const [key, value] of Object.entries(responses)) {
      if (!purposeKeys.has(key))
        throw new PlankitError(
          "invalid-options",
          `Option responses has an unknown purpose "${key}"; use one of ${[...purposeKeys].join(", ")}`,
        );
      if (!Array.isArray(value) && typeof value !== "function") {
        throw new PlankitError(
          "invalid-options",
          `Option responses.${key} must be an array of answers or a function of the request, got ${value === null ? "null" : typeof value}`,
        );
      }
    }
  }
  if (!(Number.isInteger(charsPerToken) && charsPerToken >= 1)) {
    throw new PlankitError("invalid-options", `charsPerToken must be a positive integer, got ${String(charsPerToken)}`);
  }
  if (!(tokensPerSecond > 0)) {
    throw new PlankitError("invalid-options", `tokensPerSecond must be positive, got ${String(tokensPerSecond)}`);
  }
  if (!(firstTokenMs >= 0 && Number.isFinite(firstTokenMs))) {
    throw new PlankitError("invalid-options", `firstTokenMs must be a finite number >= 0, got ${String(firstTokenMs)}`);
  }
}

/**
 * Creates a {@link PlanModel} that streams scripted answers: each call takes
 * the next answer of `responses` (or asks the function, or takes the next
 * answer for the request's `purpose`), and streams it in
 * chunks of `charsPerToken` characters at `tokensPerSecond`, after
 * `firstTokenMs`. Chunks follow a schedule measured from the call's start, so
 * timer jitter does not add up over a long answer. The `finish` part reports
 * usage estimated from the character counts.
 *
 * The request's signal is honoured at every chunk and during every wait: the
 * stream stops at once and rejects with a `PlankitError` of code `aborted`.
 * Running out of scripted answers rejects with code `model-error`.
 *
 * @param options - the answers, pace, finish reason and an optional `sleep`.
 * @returns the model, which also counts its calls and keeps the requests.
 *
 * @example
 * ```ts
 * const model = createScriptedModel({
 *   responses: ['[{"type":"reply","text":"Hello"}]'],
 *   tokensPerSecond: 60,
 *   firstTokenMs: 300,
 * });
 * for await (const part of model.stream({ prompt: "Hi" })) console.log(part);
 *
 * // Answers by purpose: a plan, then a patch after a failure.
 * const byPurpose = createScriptedModel({ responses: { plan: ['[{"type":"reply","text":"Hi"}]'], replan: ['[]'] } });
 * ```
 */
export function createScriptedModel(options: ScriptedModelOptions): ScriptedModel {
  const charsPerToken = options.charsPerToken ?? 4;
  const tokensPerSecond = options.tokensPerSecond ?? Infinity;
  const firstTokenMs = options.firstTokenMs ?? 0;
  checkScriptedOptions(options.responses, charsPerToken, tokensPerSecond, firstTokenMs);
  const interval = Number.isFinite(tokensPerSecond) ? 1000 / tokensPerSecond : 0;
  const requests: PlanModelRequest[] = [];
  const injected = options.sleep;
  const callsByKey = new Map<string, number>();
  let toolCallCount = 0;

  /**
   * Picks the answer of a call.
   *
   * @param request - the request.
   * @param call - the 1-based number of the call.
   * @returns the answer.
   */
  async function pick(request: PlanModelRequest, call: number): Promise<ScriptedResponse> {
    const source = options.responses;
    if (typeof source === "function") return source(request, call);
    if (Array.isArray(source)) {
      const list = source as readonly ScriptedResponse[];
      const response = list[call - 1];
      if (response === undefined)
        throw new PlankitError(
          "model-error",
          `The scripted model has no answer for call ${call} (it has ${list.length})`,
        );
      return response;
    }
    const byPurpose = source as ScriptedResponsesByPurpose;
    const key = request.purpose !== undefined && byPurpose[request.purpose] !== undefined ? request.purpose : "other";
    const entry = byPurpose[key];
    const nth = (callsByKey.get(key) ?? 0) + 1;
    callsByKey.set(key, nth);
    const what = request.purpose === undefined ? "a call without a purpose" : `purpose "${request.purpose}"`;
    if (entry === undefined)
      throw new PlankitError(
        "model-error",
        `The scripted model has no answers for ${what} (call ${call}) and no "other" answers`,
      );
    if (typeof entry === "function") return entry(request, nth);
    const response = (entry as readonly ScriptedResponse[])[nth - 1];
    if (response === undefined)
      throw new PlankitError(
        "model-error",
        `The scripted model has no answer for call ${nth} of "${key}" (it has ${(entry as readonly ScriptedResponse[]).length})`,
      );
    return response;
  }

  async function* stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
    requests.push(request);
    const call = requests.length;
    const { signal } = request;
    if (signal?.aborted) throw abortError(signal, scriptedStream);
    const response = await pick(request, call);
    const answer: ScriptedAnswer = typeof response === "string" ? { text: response } : response;
    const toolCalls = answer.toolCalls ?? [];
    if (!Array.isArray(toolCalls) || toolCalls.some((item) => typeof item?.name !== "string" || item.name === ""))
      throw new PlankitError(
        "invalid-options",
        `The scripted answer of call ${call} has toolCalls that are not a list of { name, input }: ${JSON.stringify(toolCalls)}`,
      );
    const finishReason =
      answer.finishReason !== undefined
        ? answer.finishReason
        : toolCalls.length > 0
          ? "tool-calls"
          : options.finishReason === undefined
            ? "stop"
            : options.finishReason;

    const started = clock();
    let virtual = 0;
    const elapsed = (): number => (injected === undefined ? clock() - started : virtual);
    const waitUntil = async (due: number): Promise<void> => {
      const ms = due - elapsed();
      if (ms <= 0) return;
      if (signal?.aborted) throw abortError(signal, scriptedStream);
      if (injected === undefined) await timerSleep(ms, signal);
      else {
        try {
          await injected(ms, signal);
        } catch (error) {
          throw signal?.aborted ? abortError(signal, scriptedStream) : error;
        }
        virtual += ms;
      }
      if (signal?.aborted) throw abortError(signal, scriptedStream);
    };

    let tokens = 0;
    /** Streams a text in tokens at the model's pace, each as the part `toPart` makes of it. */
    async function* paced(text: string, toPart: (chunk: string) => PlanModelPart): AsyncGenerator<PlanModelPart> {
      for (let offset = 0; offset < text.length; offset += charsPerToken) {
        if (interval > 0 || (tokens === 0 && firstTokenMs > 0)) await waitUntil(firstTokenMs + tokens * interval);
        if (signal?.aborted) throw abortError(signal, scriptedStream);
        tokens++;
        yield toPart(text.slice(offset, offset + charsPerToken));
      }
    }
    yield* paced(answer.text ?? "", (chunk) => ({ type: "text", text: chunk }));
    for (const toolCall of toolCalls) {
      const callId = toolCall.id ?? `call${++toolCallCount}`;
      const input = typeof toolCall.input === "string" ? toolCall.input : JSON.stringify(toolCall.input ?? {});
      yield { type: "tool-input-start", callId, toolName: toolCall.name };
      yield* paced(input, (delta) => ({ type: "tool-input-delta", callId, delta }));
      yield { type: "tool-input-end", callId };
      yield { type: "tool-call", callId, toolName: toolCall.name, input };
    }
    if (tokens === 0 && firstTokenMs > 0) await waitUntil(firstTokenMs);
    if (signal?.aborted) throw abortError(signal, scriptedStream);
    if (answer.error !== undefined) throw answer.error;
    if (finishReason !== null) {
      const input = (request.system ?? "").length + request.prompt.length;
      yield {
        type: "finish",
        reason: finishReason,
        usage: { inputTokens: Math.ceil(input / charsPerToken), outputTokens: tokens },
      };
    }
  }

  return {
    get calls() {
      return requests.length;
    },
    requests,
    stream,
  };
}
