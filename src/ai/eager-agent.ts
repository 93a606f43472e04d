/**
 * An AI SDK style agent whose tool calls start the moment their arguments are complete.
 *
 * @module
 */
import type { LanguageModel, UIMessageChunk } from "ai";
import { PlankitError } from "../errors/plankit-error.ts";
import type { Dialog } from "../events/dialog.ts";
import type { RunState } from "../events/run-state.ts";
import type { ToolSelector } from "../planner/read-planner-options.ts";
import { ToolCallPlanner } from "../planner/tool-call-planner.ts";
import { AgentRuntime, type AgentRuntimeOptions, type RunHandle } from "../runtime/agent-runtime.ts";
import { runtimeOptionNames } from "../runtime/check-runtime-options.ts";
import { noOpReflector } from "../runtime/no-op-reflector.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { type AiSdkToolLike, fromAiSdkTools } from "../tools/from-ai-sdk-tools.ts";
import type { JsonSchemaConverter } from "../tools/to-tool-json-schema.ts";
import type { ToolAnnotations } from "../tools/tool-descriptor.ts";
import { ToolRegistry } from "../tools/tool-registry.ts";
import { type FromLanguageModelOptions, fromLanguageModel } from "./from-language-model.ts";
import { fromUIMessages } from "./from-ui-messages.ts";
import { type ToUIMessageStreamOptions, toUIMessageStream } from "./to-ui-message-stream.ts";
import { type ToUIMessageStreamResponseOptions, toUIMessageStreamResponse } from "./to-ui-message-stream-response.ts";

/** Settings of {@link EagerAgent}: a `ToolLoopAgent`'s, plus what plankit needs to start tools early. */
export interface EagerAgentSettings extends Omit<AgentRuntimeOptions, "planner" | "registry" | "model"> {
  /** The AI SDK language model. */
  model: LanguageModel;
  /** AI SDK tools (`tool({ description, inputSchema, execute })`), by name. */
  tools: Readonly<Record<string, AiSdkToolLike>>;
  /**
   * The system instructions.
   *
   * @defaultValue none
   */
  instructions?: string;
  /**
   * MCP annotations by tool name. AI SDK tools carry none, and a tool without
   * them is treated as side-effecting: it waits until the model's turn
   * finished cleanly. Mark the tools that only read with
   * `{ readOnlyHint: true }` so they start the moment their arguments close.
   *
   * @defaultValue none
   */
  annotations?: Readonly<Record<string, ToolAnnotations>>;
  /**
   * The most model turns (the AI SDK's `stopWhen: stepCountIs(n)`).
   *
   * @defaultValue `8`
   */
  maxTurns?: number;
  /**
   * The most tool calls in all, plus one for the answer.
   *
   * @defaultValue `24`
   */
  maxSteps?: number;
  /**
   * Picks the tools offered to the model for a request, for tool sets too
   * large to offer whole: e.g. `(query, catalog, k) => selectTools(query,
   * catalog, { k })` with `selectTools` from `plankit/tools`.
   *
   * @defaultValue none: every tool is offered
   */
  select?: ToolSelector;
  /**
   * How many tools `select` is asked for.
   *
   * @defaultValue `6`
   */
  topK?: number;
  /** Call settings for every model request (temperature, headers, provider options). */
  modelOptions?: FromLanguageModelOptions;
  /**
   * Converts a Standard Schema that cannot give its own JSON Schema (a plain
   * valibot schema) for the model: `toJsonSchema` from `@valibot/to-json-schema`.
   *
   * @defaultValue none
   */
  toJsonSchema?: JsonSchemaConverter;
}

/** What {@link EagerAgent.stream} and {@link EagerAgent.generate} take. */
export interface EagerAgentCall {
  /** The user's request. Give this or `messages`. */
  prompt?: string;
  /** The conversation: AI SDK UI messages (`useChat`'s) or `{ role, content }` messages. */
  messages?: readonly unknown[];
  /** Cancels the model and every tool call. */
  abortSignal?: AbortSignal;
}

/** A streamed run of {@link EagerAgent}. Read it one way: its events, or one of the UI message streams. */
export interface EagerAgentStream {
  /** The runtime's run: iterate it for its events; `done` resolves with the final state. */
  readonly run: RunHandle;
  /** The run as an AI SDK UI message stream. */
  toUIMessageStream(options?: ToUIMessageStreamOptions): ReadableStream<UIMessageChunk>;
  /** The run as an SSE `Response` for `useChat` (`x-vercel-ai-ui-message-stream: v1`). */
  toUIMessageStreamResponse(options?: ToUIMessageStreamResponseOptions): Response;
}

/** What {@link EagerAgent.generate} resolves with. */
export interface EagerAgentResult {
  /** The reply. */
  text: string;
  /** The run's final state: steps, results, usage, reason. */
  state: RunState;
}

/**
 * Reads the conversation of a call.
 *
 * @param call - prompt or messages.
 * @returns the dialog.
 * @throws PlankitError `invalid-input` when neither or both are given; `invalid-options` for a field it does not know.
 */
function dialogOf(call: EagerAgentCall): Dialog {
  // A field left unread (`signal`, the runtime's name) would leave the run running after the request ends.
  checkOptionKeys(call, ["prompt", "messages", "abortSignal"], "EagerAgent call");
  if ((call.prompt === undefined) === (call.messages === undefined)) {
    throw new PlankitError("invalid-input", "Give either prompt or messages");
  }
  if (call.prompt !== undefined) return call.prompt;
  const messages = call.messages ?? [];
  const plain = messages.every((message) => typeof (message as { content?: unknown })?.content === "string");
  return plain ? (messages as Dialog) : fromUIMessages(messages);
}

/**
 * Registers the agent's tools.
 *
 * @param tools - the AI SDK tools.
 * @param annotations - annotations by tool name.
 * @param toJsonSchema - the converter for schemas without their own JSON Schema.
 * @returns the registry.
 * @throws PlankitError `invalid-options` for annotations of a tool it does not have; `invalid-catalog` for a tool the registry refuses.
 */
function registryOf(
  tools: EagerAgentSettings["tools"],
  annotations: EagerAgentSettings["annotations"],
  toJsonSchema: JsonSchemaConverter | undefined,
): ToolRegistry {
  // A misspelt tool name would leave its tool side-effecting, unseen.
  checkOptionKeys(annotations ?? {}, Object.keys(tools), "EagerAgent annotations");
  const registry = new ToolRegistry(toJsonSchema === undefined ? {} : { toJsonSchema });
  try {
    return registry.register(fromAiSdkTools(tools, annotations === undefined ? {} : { annotations }));
  } catch (error) {
    // The registry's advice names its own option; here the agent makes the registry.
    if (!PlankitError.isInstance(error) || !error.message.includes("ToolRegistry({ toJsonSchema })")) throw error;
    throw new PlankitError(error.code, `${error.message}; EagerAgent takes it as its toJsonSchema`, { cause: error });
  }
}

/**
 * An agent in the shape of the AI SDK's `ToolLoopAgent` — a model, AI SDK
 * tools, instructions — that runs each tool call the moment its arguments
 * are complete instead of after the model's whole turn, and sends the
 * results back to the model turn after turn until it answers. Underneath it
 * is a `ToolCallPlanner` with an `AgentRuntime`, so calls are
 * validated, may reference each other (`"{{s1.price}}"`), and follow the
 * runtime's safety policy: only read-only tools start while the model is
 * still writing; a turn cut off (`length`, an error) runs none of its other
 * calls. A call's arguments are complete when their JSON closes in the
 * streamed deltas (`@ai-sdk/openai` announces every call's end only when the
 * turn ends); the provider's final input then confirms the step, or
 * supersedes it when it differs: a read-only tool runs again with it, any
 * other tool runs in neither version.
 *
 * @example
 * ```ts
 * const agent = new EagerAgent({
 *   model: openai("gpt-4o-mini"),
 *   tools: { weather: tool({ description: "Weather in a city", inputSchema: z.object({ city: z.string() }), execute }) },
 *   annotations: { weather: { readOnlyHint: true } },
 * });
 * const { text } = await agent.generate({ prompt: "Weather in Paris and Tokyo?" });
 * ```
 */
export class EagerAgent {
  /** The runtime that runs the calls. */
  readonly runtime: AgentRuntime;
  /** The planner that turns the model's calls into steps. */
  readonly planner: ToolCallPlanner;

  /**
   * @param settings - model, tools, instructions, annotations, limits and runtime options.
   * @throws PlankitError `invalid-options` for a bad limit or option, or annotations of a tool it does not have; `invalid-catalog` for a tool without `execute`.
   */
  constructor(settings: EagerAgentSettings) {
    checkOptionKeys(
      settings,
      [
        ..."model tools instructions annotations maxTurns maxSteps select topK modelOptions toJsonSchema".split(" "),
        ...runtimeOptionNames.filter((name) => name !== "planner" && name !== "registry" && name !== "model"),
      ],
      "EagerAgent",
    );
    const {
      model,
      tools,
      instructions,
      annotations,
      maxTurns,
      maxSteps,
      select,
      topK,
      modelOptions,
      toJsonSchema,
      ...runtimeOptions
    } = settings;
    const registry = registryOf(tools, annotations, toJsonSchema);
    this.planner = new ToolCallPlanner({
      model: fromLanguageModel(model, modelOptions),
      ...(select === undefined ? {} : { select }),
      ...(topK === undefined ? {} : { topK }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(maxSteps === undefined ? {} : { maxSteps }),
    });
    this.runtime = new AgentRuntime({
      // The model hears of every failure itself; no separate reflection call.
      reflector: noOpReflector,
      ...runtimeOptions,
      planner: this.planner,
      registry,
      ...(instructions === undefined ? {} : { profile: instructions }),
    });
  }

  /**
   * Starts a run and returns it as events and UI message streams.
   *
   * @param call - the prompt or messages, and an abort signal.
   * @returns the run.
   * @throws PlankitError `invalid-input` when neither or both of prompt and messages are given.
   */
  stream(call: EagerAgentCall): EagerAgentStream {
    const run = this.runtime.run(dialogOf(call), call.abortSignal === undefined ? {} : { signal: call.abortSignal });
    return {
      run,
      toUIMessageStream: (options) => toUIMessageStream(run, options),
      toUIMessageStreamResponse: (options) => toUIMessageStreamResponse(run, options),
    };
  }

  /**
   * Runs to the end and returns the reply and the final state.
   *
   * @param call - the prompt or messages, and an abort signal.
   * @returns the reply and state.
   */
  async generate(call: EagerAgentCall): Promise<EagerAgentResult> {
    const { run } = this.stream(call);
    for await (const event of run) void event;
    const state = await run.done;
    return { text: state.reply?.text ?? "", state };
  }
}
