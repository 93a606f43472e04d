/**
 * One model call, as the planner makes it: text and native tool calls.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { FinishReason, PlanModel, PlanModelPart, PlanModelRequest } from "../model/plan-model.ts";
import { createReasoningFilter } from "./create-reasoning-filter.ts";
import type { PlannerUsage } from "./planner-event.ts";

/** A part of a model call as the planner reads it: every part but `finish`, whose reason is the return value. */
export type ModelCallPart = Exclude<PlanModelPart, { type: "finish" }>;

/**
 * Builds the error thrown when the caller's signal fired.
 *
 * @param signal - the aborted signal.
 * @param what - what was interrupted, for the message.
 * @returns the error.
 */
function plannerAbortError(signal: AbortSignal, what: string): PlankitError {
  return new PlankitError("aborted", `${what} was aborted`, { cause: signal.reason });
}

/** The longest waits of a planner's model call, in ms: for the next part, and for the whole call. */
export interface ModelCallTimeouts {
  idleMs: number;
  totalMs: number;
}

/** A model that sends nothing for a minute, or takes five, has stalled. */
const defaultTimeouts: ModelCallTimeouts = { idleMs: 60_000, totalMs: 300_000 };

/**
 * Waits for the model's next part, at most until the idle or total limit.
 *
 * @param next - the pending part.
 * @param timeouts - the limits.
 * @param startedAt - when the call started (`Date.now()`).
 * @param what - what the call is for, for the error.
 * @returns the part.
 * @throws PlankitError `timeout` naming the limit.
 */
function boundedNext<T>(next: Promise<T>, timeouts: ModelCallTimeouts, startedAt: number, what: string): Promise<T> {
  const left = timeouts.totalMs - (Date.now() - startedAt);
  const idle = Math.max(0, Math.min(timeouts.idleMs, left));
  const message = idle < timeouts.idleMs ? `${what} timed out: the model call took longer than ${timeouts.totalMs} ms` : `${what} timed out: the model sent nothing for ${timeouts.idleMs} ms`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PlankitError("timeout", message)), Math.min(idle, 2_147_483_647));
  });
  return Promise.race([next, timeout]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/**
 * Streams one model call's parts, counting the call and adding the reported
 * tokens to `usage`. A leading `<think>` block is dropped from the text (see
 * `createReasoningFilter`); native tool-call parts pass through as they come.
 * It stops at the `finish` part and returns its reason, or `"missing"` when
 * the stream ended without one.
 *
 * @param model - the model.
 * @param request - system prompt, prompt, tools, messages and signal.
 * @param usage - updated in place.
 * @param what - what the call is for, for error messages ("Planning").
 * @param whileWaiting - run once the call is under way, before its first part arrives.
 * @param timeouts - the idle and total limits of the call (default 60 s idle, 300 s in all).
 * @returns the parts; the return value is the finish reason.
 * @throws PlankitError `aborted` when the request's signal fired; `model-error` when the model failed; `timeout` when it stalled.
 *
 * @example
 * ```ts
 * const call = streamModelParts(model, { prompt, tools }, usage, "Planning");
 * for (let next = await call.next(); !next.done; next = await call.next()) console.log(next.value);
 * ```
 */
export async function* streamModelParts(
  model: PlanModel,
  request: PlanModelRequest,
  usage: PlannerUsage,
  what: string,
  whileWaiting?: () => void,
  timeouts: ModelCallTimeouts = defaultTimeouts,
): AsyncGenerator<ModelCallPart, FinishReason | "missing"> {
  const { signal } = request;
  if (signal?.aborted) throw plannerAbortError(signal, what);
  usage.modelCalls++;
  let reason: FinishReason | "missing" = "missing";
  const filter = createReasoningFilter();
  let iterator: AsyncIterator<PlanModelPart> | undefined;
  let exhausted = false;
  try {
    iterator = model.stream(request)[Symbol.asyncIterator]();
    const startedAt = Date.now();
    const first = boundedNext(iterator.next(), timeouts, startedAt, what);
    // The call is under way; whatever can be done before its first part arrives is off the critical path.
    whileWaiting?.();
    for (let next = await first; ; next = await boundedNext(iterator.next(), timeouts, startedAt, what)) {
      if (next.done === true) {
        exhausted = true;
        break;
      }
      const part = next.value;
      if (signal?.aborted) throw plannerAbortError(signal, what);
      if (part.type === "text") {
        const text = filter.push(part.text);
        if (text !== "") yield { type: "text", text };
      } else if (part.type === "finish") {
        reason = part.reason;
        if (part.usage?.inputTokens !== undefined) usage.inputTokens = (usage.inputTokens ?? 0) + part.usage.inputTokens;
        if (part.usage?.outputTokens !== undefined) usage.outputTokens = (usage.outputTokens ?? 0) + part.usage.outputTokens;
        break;
      } else {
        yield part;
      }
    }
  } catch (error) {
    if (signal?.aborted) throw plannerAbortError(signal, what);
    if (PlankitError.isInstance(error)) throw error;
    throw new PlankitError("model-error", `${what} failed: the model stream threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, {
      cause: error,
    });
  } finally {
    // Close the model's stream when leaving early (finish part, error, or the consumer stopped). Not awaited: a model
    // stalled inside an await would hold its return() until the caller's abort, which comes only after this throws.
    if (iterator?.return !== undefined && !exhausted) void Promise.resolve(iterator.return()).catch(() => undefined);
  }
  if (signal?.aborted) throw plannerAbortError(signal, what);
  const rest = filter.end();
  if (rest !== "") yield { type: "text", text: rest };
  return reason;
}
