/**
 * The one way plankit reads a model's stream: planner, runtime, decision
 * engine and adapters all go through it.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { abortError } from "../shared/abort-error.ts";
import { type RuntimeClock, systemClock } from "../shared/runtime-clock.ts";
import { boundStream, type ModelTimeouts } from "./bound-stream.ts";
import { createReasoningFilter } from "./create-reasoning-filter.ts";
import type { FinishReason, PlanModel, PlanModelPart, PlanModelRequest, PlanModelUsage } from "./plan-model.ts";

/** A part of a model call as its reader sees it: every part but `finish`, whose reason is the return value. */
export type ModelCallPart = Exclude<PlanModelPart, { type: "finish" }>;

/** Model calls and tokens, added up across calls by {@link readModelStream}. */
export interface ModelCallUsage extends PlanModelUsage {
  /** Calls started. */
  modelCalls: number;
}

/** Options of {@link readModelStream}. */
export interface ModelStreamOptions {
  /** What the call is for, in error messages ("Planning", "Reflection"). */
  what: string;
  /** Counts the call and adds the tokens its `finish` part reports, in place. */
  usage?: ModelCallUsage;
  /**
   * The longest waits: for the next part, and for the whole call.
   *
   * @defaultValue no limit (the caller bounds the call another way)
   */
  timeouts?: ModelTimeouts;
  /**
   * The timers of the limits.
   *
   * @defaultValue `systemClock`
   */
  clock?: RuntimeClock;
  /** Runs once the call is under way, before its first part arrives: work that can overlap the model's first token. */
  whileWaiting?: () => void;
}

/**
 * Adds a call's reported tokens to a running total.
 *
 * @param total - updated in place.
 * @param usage - what one call reported.
 *
 * @example
 * ```ts
 * addTokens(total, { inputTokens: 120, outputTokens: 30 });
 * ```
 */
export function addTokens(total: PlanModelUsage, usage: PlanModelUsage | undefined): void {
  if (usage?.inputTokens !== undefined) total.inputTokens = (total.inputTokens ?? 0) + usage.inputTokens;
  if (usage?.outputTokens !== undefined) total.outputTokens = (total.outputTokens ?? 0) + usage.outputTokens;
}

/**
 * Streams one model call's parts. A leading `<think>` block is left out of
 * the text (see `createReasoningFilter`); native tool-call parts pass
 * through as they come. It stops at the `finish` part and returns its
 * reason, or `"missing"` when the stream ended without one. The model's
 * stream is closed when the reader leaves early.
 *
 * @param model - the model.
 * @param request - prompt, tools, messages, purpose and signal.
 * @param options - what the call is for, usage, limits.
 * @returns the parts; the return value is the finish reason.
 * @throws PlankitError `aborted` (or the signal's own plankit error) when the request's signal fired;
 *   `model-error` when the model's stream threw; `timeout` when it stalled past a limit.
 *
 * @example
 * ```ts
 * const call = readModelStream(model, { purpose: "plan", prompt }, { what: "Planning" });
 * for (let next = await call.next(); !next.done; next = await call.next()) console.log(next.value);
 * ```
 */
export async function* readModelStream(
  model: PlanModel,
  request: PlanModelRequest,
  options: ModelStreamOptions,
): AsyncGenerator<ModelCallPart, FinishReason | "missing"> {
  const { signal } = request;
  const { what, usage } = options;
  if (signal?.aborted) throw abortError(signal, what);
  if (usage !== undefined) usage.modelCalls++;
  let reason: FinishReason | "missing" = "missing";
  const filter = createReasoningFilter();
  let iterator: AsyncIterator<PlanModelPart> | undefined;
  let exhausted = false;
  try {
    const source = model.stream(request);
    iterator = (
      options.timeouts === undefined
        ? source
        : boundStream(source, options.timeouts, options.clock ?? systemClock, what, signal)
    )[Symbol.asyncIterator]();
    const first = iterator.next();
    // The call is under way; whatever can be done before its first part arrives is off the critical path.
    options.whileWaiting?.();
    for (let next = await first; ; next = await iterator.next()) {
      if (next.done === true) {
        exhausted = true;
        break;
      }
      const part = next.value;
      if (signal?.aborted) throw abortError(signal, what);
      if (part.type === "text") {
        const text = filter.push(part.text);
        if (text !== "") yield { type: "text", text };
      } else if (part.type === "finish") {
        reason = part.reason;
        if (usage !== undefined) addTokens(usage, part.usage);
        break;
      } else {
        yield part;
      }
    }
  } catch (error) {
    if (signal?.aborted) throw abortError(signal, what);
    if (PlankitError.isInstance(error)) throw error;
    throw new PlankitError(
      "model-error",
      `${what} failed: the model stream threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      {
        cause: error,
      },
    );
  } finally {
    // Close the model's stream when leaving early (finish part, error, or the consumer stopped). Not awaited: a model
    // stalled inside an await would hold its return() until the caller's abort, which comes only after this throws.
    if (iterator?.return !== undefined && !exhausted) void Promise.resolve(iterator.return()).catch(() => undefined);
  }
  if (signal?.aborted) throw abortError(signal, what);
  const rest = filter.end();
  if (rest !== "") yield { type: "text", text: rest };
  return reason;
}
