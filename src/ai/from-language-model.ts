/**
 * Adapting an AI SDK language model to plankit's model interface.
 *
 * @module
 */
import {
  type FinishReason as AiFinishReason,
  APICallError,
  type JSONSchema7,
  type JSONValue,
  jsonSchema,
  type LanguageModel,
  type LanguageModelCallOptions,
  type ModelMessage,
  type ProviderMetadata,
  RetryError,
  streamText,
  type ToolSet,
  tool,
} from "ai";
import { PlankitError } from "../errors/plankit-error.ts";
import type {
  FinishReason,
  PlanModel,
  PlanModelMessage,
  PlanModelPart,
  PlanModelRequest,
  PlanModelTool,
  PlanModelUsage,
} from "../model/plan-model.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { describeValue } from "../shared/describe-value.ts";

type StreamTextOptions = Parameters<typeof streamText>[0];

/** Options of {@link fromLanguageModel}: call settings passed to every `streamText` call. */
export interface FromLanguageModelOptions extends LanguageModelCallOptions {
  /**
   * Retries of a failed request before streaming starts.
   *
   * @defaultValue the AI SDK's (`2`)
   */
  maxRetries?: number;
  /** Extra HTTP headers for HTTP-based providers. */
  headers?: Record<string, string>;
  /** Provider-specific options (`{ openai: { … } }`). */
  providerOptions?: NonNullable<StreamTextOptions["providerOptions"]>;
}

/** The names of {@link FromLanguageModelOptions}: a misspelt one would be passed to `streamText` and ignored. */
const optionNames = [
  ..."maxOutputTokens temperature topP topK presencePenalty frequencyPenalty stopSequences seed reasoning".split(" "),
  ..."maxRetries headers providerOptions".split(" "),
];

const finishReasons: Readonly<Record<AiFinishReason, FinishReason>> = {
  stop: "stop",
  length: "length",
  "content-filter": "content-filter",
  error: "error",
  // Clean only for a request that offered tools; a text planner treats it as unclean.
  "tool-calls": "tool-calls",
  interrupted: "other",
  other: "other",
};

/**
 * Turns an error part or a thrown error into a plankit error.
 *
 * @param error - what the AI SDK reported.
 * @param signal - the request's signal.
 * @returns the error to throw.
 */
function toError(error: unknown, signal: AbortSignal | undefined): PlankitError {
  if (PlankitError.isInstance(error)) return error;
  if (signal?.aborted) return new PlankitError("aborted", "The model stream was aborted", { cause: signal.reason });
  // A provider's message may be a whole validation report; the cause keeps it.
  const message = `The language model failed${describeFailure(error)}`;
  return new PlankitError("model-error", message.length > 500 ? `${message.slice(0, 499)}…` : message, {
    cause: error,
  });
}

/**
 * The host of a URL (with its port), without credentials, path or query.
 *
 * @param url - the URL.
 * @returns the host, or `undefined` when the URL does not parse.
 */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What went wrong, for the message: an HTTP call's status and host (the
 * last attempt's, after retries), or the error's name and message.
 *
 * @param error - what the AI SDK reported.
 * @returns the text after "The language model failed".
 */
function describeFailure(error: unknown): string {
  const last = RetryError.isInstance(error) && error.lastError !== undefined ? error.lastError : error;
  if (APICallError.isInstance(last)) {
    const host = hostOf(last.url);
    const status = last.statusCode === undefined ? "no HTTP answer" : `HTTP ${last.statusCode}`;
    return ` (${status}${host === undefined ? "" : ` from ${host}`}): ${last.message}`;
  }
  return `: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

/** Names providers accept for functions (OpenAI's rule; the strictest common one). */
const providerName = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Gives each tool a name the provider accepts (`math.factorial` →
 * `math_factorial`, suffixed when two would collide) and remembers the way back.
 *
 * @param tools - the offered tools.
 * @returns provider name → catalog name.
 */
function providerNames(tools: readonly PlanModelTool[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set(tools.map((entry) => entry.name).filter((name) => providerName.test(name)));
  for (const entry of tools) {
    if (providerName.test(entry.name)) {
      names.set(entry.name, entry.name);
      continue;
    }
    const base = entry.name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60) || "tool";
    let name = base;
    for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
    taken.add(name);
    names.set(name, entry.name);
  }
  return names;
}

/**
 * Turns a result into the AI SDK's tool output.
 *
 * @param result - what came of the call.
 * @returns the output part's value.
 */
function toolOutput(result: { output: unknown; isError?: boolean }) {
  const json = (result.output === undefined ? null : JSON.parse(JSON.stringify(result.output) ?? "null")) as JSONValue;
  if (result.isError === true)
    return typeof json === "string"
      ? { type: "error-text" as const, value: json }
      : { type: "error-json" as const, value: json };
  return typeof json === "string" ? { type: "text" as const, value: json } : { type: "json" as const, value: json };
}

/** The model's reasoning in a turn, as the provider wants it back (a signature, say) with the turn's calls. */
interface TurnReasoning {
  text: string;
  providerOptions?: ProviderMetadata;
}

/** What a provider needs sent back with a call: its metadata (a thought signature) and its turn's reasoning. */
interface CallContext {
  providerOptions: ProviderMetadata | undefined;
  reasoning: readonly TurnReasoning[];
}

/** How many calls' contexts one adapted model keeps. */
const maxCallContexts = 512;

/**
 * Builds the AI SDK messages of a request with earlier tool-calling turns.
 *
 * @param request - the request.
 * @param toProvider - catalog name → provider name.
 * @param contexts - what each earlier call came with, by call id.
 * @returns the messages, starting with the prompt as the user's.
 */
function toModelMessages(
  request: PlanModelRequest,
  toProvider: ReadonlyMap<string, string>,
  contexts: ReadonlyMap<string, CallContext>,
): ModelMessage[] {
  const name = (toolName: string): string => toProvider.get(toolName) ?? toolName;
  const messages: ModelMessage[] = [{ role: "user", content: request.prompt }];
  for (const message of request.messages ?? ([] as PlanModelMessage[])) {
    if (message.role === "assistant") {
      const reasoning = message.toolCalls
        .map((call) => contexts.get(call.callId)?.reasoning ?? [])
        .find((parts) => parts.length > 0);
      messages.push({
        role: "assistant",
        content: [
          ...(reasoning ?? []).map((part) => ({ type: "reasoning" as const, ...part })),
          ...(message.text === "" ? [] : [{ type: "text" as const, text: message.text }]),
          ...message.toolCalls.map((call) => {
            const providerOptions = contexts.get(call.callId)?.providerOptions;
            return {
              type: "tool-call" as const,
              toolCallId: call.callId,
              toolName: name(call.toolName),
              input: call.input,
              ...(providerOptions === undefined ? {} : { providerOptions }),
            };
          }),
        ],
      });
    } else {
      messages.push({
        role: "tool",
        content: message.results.map((result) => ({
          type: "tool-result" as const,
          toolCallId: result.callId,
          toolName: name(result.toolName),
          output: toolOutput(result),
        })),
      });
    }
  }
  return messages;
}

/**
 * Adapts any AI SDK `LanguageModel` (v7 — a provider model such as
 * `createOpenAI({ baseURL })("…")`, or a gateway model id) to a
 * {@link PlanModel}, so every AI SDK provider can plan, including
 * `@ai-sdk/openai` pointed at any OpenAI-compatible server.
 *
 * Each request runs `streamText` with the system prompt as `instructions`
 * and the prompt as the user message; text deltas become `text` parts, the
 * final finish reason and token usage the `finish` part (`interrupted` maps
 * to `other`). A request's `tools` are offered natively, without `execute`
 * (plankit runs them), under names the provider accepts; the streamed
 * `tool-input-*` and `tool-call` parts come back under the catalog's names,
 * and `messages` (earlier calls and their results) follow the prompt, each call with the provider
 * metadata and the turn's reasoning it came with (thought signatures, signed thinking). Errors the AI SDK reports in the stream are
 * thrown as `PlankitError` `model-error` (`aborted` when the signal fired),
 * so a failed request never looks like an empty answer.
 *
 * @param model - the AI SDK language model.
 * @param options - call settings for every request (temperature, max output tokens, retries, headers, provider options).
 * @returns the model.
 * @throws PlankitError `invalid-options` for a model that is neither a language model nor a model id, or an option that is not a call setting (a misspelt one, say).
 *
 * @example
 * ```ts
 * import { createOpenAI } from "@ai-sdk/openai";
 * import { fromLanguageModel } from "plankit/ai";
 *
 * const openai = createOpenAI({ baseURL: "http://localhost:8000/v1", apiKey: "sk-…" });
 * const planner = new LLMPlanner({ model: fromLanguageModel(openai.chat("gpt-4o-mini"), { temperature: 0 }) });
 * ```
 */
export function fromLanguageModel(model: LanguageModel, options: FromLanguageModelOptions = {}): PlanModel {
  const streams = typeof (model as { doStream?: unknown } | null)?.doStream === "function";
  if (typeof model !== "string" && !streams) {
    throw new PlankitError(
      "invalid-options",
      `fromLanguageModel: model must be an AI SDK language model or a model id string, got ${describeValue(model)}`,
    );
  }
  checkOptionKeys(options, optionNames, "fromLanguageModel");
  // What each call came with, sent back with it in later turns; the oldest are let go.
  const contexts = new Map<string, CallContext>();
  return {
    async *stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
      const { signal } = request;
      if (signal?.aborted) throw toError(undefined, signal);
      const offered = request.tools ?? [];
      const fromProvider = providerNames(offered);
      const toProvider = new Map([...fromProvider].map(([provider, name]) => [name, provider]));
      const catalogName = (name: string): string => fromProvider.get(name) ?? name;
      const input =
        request.messages !== undefined && request.messages.length > 0
          ? { messages: toModelMessages(request, toProvider, contexts) }
          : { prompt: request.prompt };
      const call: StreamTextOptions = {
        ...options,
        model,
        ...input,
        // The stream's error parts are thrown below; the default handler would also log them.
        onError: () => {},
      };
      if (offered.length > 0) {
        const tools: ToolSet = {};
        for (const entry of offered) {
          tools[toProvider.get(entry.name) ?? entry.name] = tool({
            description: entry.description,
            inputSchema: jsonSchema(entry.inputSchema as JSONSchema7),
          });
        }
        call.tools = tools;
      }
      if (request.system !== undefined) call.instructions = request.system;
      if (signal !== undefined) call.abortSignal = signal;
      const result = streamText(call);
      const reasoning = new Map<string, TurnReasoning>();
      const withMetadata = (part: TurnReasoning, metadata: ProviderMetadata | undefined): void => {
        if (metadata !== undefined) part.providerOptions = { ...part.providerOptions, ...metadata };
      };
      try {
        for await (const part of result.stream) {
          if (part.type === "reasoning-start") {
            const started: TurnReasoning = { text: "" };
            withMetadata(started, part.providerMetadata);
            reasoning.set(part.id, started);
          } else if (part.type === "reasoning-delta" || part.type === "reasoning-end") {
            const entry = reasoning.get(part.id);
            if (entry === undefined) continue;
            if (part.type === "reasoning-delta") entry.text += part.text;
            withMetadata(entry, part.providerMetadata);
          } else if (part.type === "text-delta") {
            if (part.text !== "") yield { type: "text", text: part.text };
          } else if (part.type === "tool-input-start") {
            yield { type: "tool-input-start", callId: part.id, toolName: catalogName(part.toolName) };
          } else if (part.type === "tool-input-delta") {
            if (part.delta !== "") yield { type: "tool-input-delta", callId: part.id, delta: part.delta };
          } else if (part.type === "tool-input-end") {
            yield { type: "tool-input-end", callId: part.id };
          } else if (part.type === "tool-call") {
            // Arguments the AI SDK could not parse come as the model's own text: passed as they are, not as a JSON string.
            const input =
              part.invalid === true && typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {});
            contexts.set(part.toolCallId, {
              providerOptions: part.providerMetadata,
              reasoning: [...reasoning.values()],
            });
            if (contexts.size > maxCallContexts) contexts.delete(contexts.keys().next().value as string);
            yield { type: "tool-call", callId: part.toolCallId, toolName: catalogName(part.toolName), input };
          } else if (part.type === "error") {
            throw toError(part.error, signal);
          } else if (part.type === "abort") {
            throw new PlankitError(
              "aborted",
              `The model stream was aborted${part.reason === undefined ? "" : `: ${part.reason}`}`,
              { cause: signal?.reason },
            );
          } else if (part.type === "finish") {
            const usage: PlanModelUsage = {};
            if (part.totalUsage.inputTokens !== undefined) usage.inputTokens = part.totalUsage.inputTokens;
            if (part.totalUsage.outputTokens !== undefined) usage.outputTokens = part.totalUsage.outputTokens;
            yield { type: "finish", reason: finishReasons[part.finishReason], usage };
          }
        }
      } catch (error) {
        throw toError(error, signal);
      }
    },
  };
}
